// Fuzz cases for one operation: its well-formed request (path parameters naming existing objects, a valid body)
// with one thing made hostile, so the request must be refused (4xx) and change nothing. A few cases on reads put
// odd text where the API takes any text (a filter); those must only not fail (no 5xx) and change nothing.
import {
  BAD_CONTENT_TYPES,
  BAD_JSON,
  HOSTILE_HEADER_VALUES,
  HOSTILE_STRINGS,
  INVALID_SEGMENTS,
  NON_OBJECT_BODIES,
  ODD_METHODS,
  PROTOTYPE_NAMES,
  hostileAuthorizations,
} from './fuzz-inputs.js';
import { enumOf, jsonType, sampleOf, typesOf, type Operation, type Parameter, type Schema } from './fuzz-openapi.js';
import type { Random } from './fuzz-random.js';

export interface FuzzCase {
  op: string;
  /** What was made hostile, for the failure message. */
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** true: must be 4xx. false: a read with odd free-form text, which may also answer 2xx. */
  refused: boolean;
}

export interface Target {
  /** Path parameter values naming an existing object for this operation. */
  params: Record<string, string>;
  /** A valid body (the fuzz makes it hostile), or undefined to build one from the schema. */
  body?: unknown;
}

export interface CaseContext {
  op: Operation;
  target: Target;
  token: string;
  resolve: (s: Schema) => Schema;
  /** All methods the operation's path answers. */
  pathMethods: Set<string>;
}

type Mutation = (c: CaseContext, r: Random) => FuzzCase | undefined;

const HUGE_NUMBER = '1e400';

function build(
  c: CaseContext,
  what: string,
  opts: {
    params?: Record<string, string>;
    query?: Array<[string, string]>;
    body?: string | Buffer | null;
    headers?: Record<string, string | undefined>;
    method?: string;
    refused?: boolean;
  } = {},
): FuzzCase {
  const params = { ...encodedParams(c), ...opts.params };
  const path = c.op.path.replace(/\{(\w+)\}/g, (_, p: string) => params[p] ?? 'missing');
  const query = opts.query ?? baseQuery(c);
  const qs = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const body = opts.body === undefined ? baseBody(c) : (opts.body ?? undefined);
  return {
    op: c.op.key,
    what,
    method: opts.method ?? c.op.method,
    url: qs ? `${path}?${qs}` : path,
    headers: definedOnly({
      authorization: `Bearer ${c.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    }),
    ...(body !== undefined ? { payload: body } : {}),
    refused: opts.refused ?? true,
  };
}

/** Percent-encoding, where a lone surrogate (not encodable as UTF-8) goes as the bytes a careless client sends. */
export function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Headers set to undefined are left out (not sent at all). */
const definedOnly = (h: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));

const encodedParams = (c: CaseContext) =>
  Object.fromEntries(Object.entries(c.target.params).map(([k, v]) => [k, encodeURIComponent(v)]));

/** Required query parameters without a default, filled with a schema-valid value. */
function baseQuery(c: CaseContext): Array<[string, string]> {
  return c.op.params
    .filter((p) => p.in === 'query' && p.required && c.resolve(p.schema).default === undefined)
    .map((p) => [p.name, String(sampleOf(p.schema, c.resolve))]);
}

function baseBodyValue(c: CaseContext): unknown {
  if (!c.op.body) return undefined;
  return structuredClone(c.target.body ?? sampleOf(c.op.body, c.resolve));
}

function baseBody(c: CaseContext): string | undefined {
  const v = baseBodyValue(c);
  return v === undefined ? undefined : JSON.stringify(v);
}

// --- path parameters -------------------------------------------------------------------------------------------

const pathParam: Mutation = (c, r) => {
  const names = c.op.params.filter((p) => p.in === 'path').map((p) => p.name);
  if (names.length === 0) return undefined;
  const name = r.pick(names);
  // A name JavaScript objects already have: only where nothing could be created under it.
  const odd = c.op.method !== 'PUT' && r.chance(0.2);
  const segment = odd ? r.pick(PROTOTYPE_NAMES) : r.pick(INVALID_SEGMENTS);
  return build(c, `path ${name}=${show(segment)}`, { params: { [name]: segment } });
};

// --- query parameters ------------------------------------------------------------------------------------------

/** A text value this query parameter's schema refuses, or undefined when it takes any text. */
function invalidQueryValue(p: Parameter, c: CaseContext, r: Random): string | string[] | undefined {
  const s = c.resolve(p.schema);
  const types = typesOf(s, c.resolve);
  const allowed = enumOf(s, c.resolve);
  if (types.has('integer') || types.has('number')) {
    const options = ['abc', HUGE_NUMBER, '-1e400', '99999999999999999999999', 'NaN', 'Infinity', '1,2', '[1]', '1 2'];
    if (types.has('integer')) options.push('1.5', '0.0001');
    if (s.minimum !== undefined) options.push(String(s.minimum - 1), String(s.minimum - 1000000));
    if (s.maximum !== undefined) options.push(String(s.maximum + 1), String(s.maximum * 1000));
    const v = r.pick(options);
    return r.chance(0.15) ? [String(sampleOf(s, c.resolve)), v] : v;
  }
  if (types.has('boolean')) return r.pick(['yes', 'no', 'maybe', '2', '-1', 'TRUE ', 'null', 'on', '']);
  if (allowed) {
    const bad = HOSTILE_STRINGS.filter((h) => !allowed.includes(h) && h !== '');
    return r.pick(bad);
  }
  if (s.maxLength !== undefined) return 'q'.repeat(s.maxLength + 1 + r.int(100));
  if (s.pattern) {
    const re = new RegExp(s.pattern, 'u');
    const bad = HOSTILE_STRINGS.filter((h) => !re.test(h));
    if (bad.length) return r.pick(bad);
  }
  return undefined;
}

const queryParam: Mutation = (c, r) => {
  const candidates = c.op.params
    .filter((p) => p.in === 'query')
    .map((p) => ({ p, v: invalidQueryValue(p, c, r) }))
    .filter((x) => x.v !== undefined);
  if (candidates.length === 0) return undefined;
  const { p, v } = r.pick(candidates);
  const query = baseQuery(c).filter(([k]) => k !== p.name);
  for (const one of Array.isArray(v) ? v : [v!]) query.push([p.name, one]);
  return build(c, `query ${p.name}=${show(v)}`, { query });
};

/** A query parameter the operation does not declare (a misspelt `dryrun`), which must not be ignored. */
const unknownQuery: Mutation = (c, r) => {
  const declared = new Set(c.op.params.filter((p) => p.in === 'query').map((p) => p.name));
  const name = r.pick(['dryrun', 'force', 'unknown', '__proto__', 'constructor', 'toString', '', 'q'.repeat(300)]);
  if (declared.has(name)) return undefined;
  const value = r.pick(HOSTILE_STRINGS);
  return build(c, `unknown query ${show(name)}=${show(value)}`, { query: [...baseQuery(c), [name, value]] });
};

/**
 * Odd text in a query parameter that takes any text (a filter, a cursor): on reads only, which may answer 2xx,
 * and not on streams (a 2xx stream never ends).
 */
const freeQuery: Mutation = (c, r) => {
  if (c.op.method !== 'GET' || c.op.streams) return undefined;
  const open = c.op.params.filter((p) => p.in === 'query' && invalidQueryValue(p, c, r) === undefined);
  if (open.length === 0) return undefined;
  const name = r.pick(open).name;
  const value = r.pick(HOSTILE_STRINGS);
  return build(c, `query ${name}=${show(value)} (free text)`, {
    query: [...baseQuery(c), [name, value]],
    refused: false,
  });
};

// --- bodies ----------------------------------------------------------------------------------------------------

interface Slot {
  path: Array<string | number>;
  schema: Schema;
}

/** Every value in the body with the schema it must meet. */
function slotsOf(value: unknown, schema: Schema, c: CaseContext, path: Array<string | number> = []): Slot[] {
  const s = c.resolve(schema);
  const out: Slot[] = [{ path, schema: s }];
  if (Array.isArray(value) && s.items) value.forEach((v, i) => out.push(...slotsOf(v, s.items!, c, [...path, i])));
  else if (value && typeof value === 'object' && s.properties) {
    for (const [k, v] of Object.entries(value)) {
      const p = s.properties[k];
      if (p) out.push(...slotsOf(v, p, c, [...path, k]));
    }
  } else if (value && typeof value === 'object') {
    // anyOf of objects (a platform, a selector): follow the alternative that declares the keys.
    const alt = (s.anyOf ?? s.oneOf ?? [])
      .map((a) => c.resolve(a))
      .find((a) => a.properties && Object.keys(value).every((k) => k in a.properties!));
    if (alt) return [{ path, schema: s }, ...slotsOf(value, alt, c, path).slice(1)];
  }
  return out;
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return root;
}

function deleteAt(root: unknown, path: Array<string | number>): void {
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  delete cur[path[path.length - 1]!];
}

const where = (path: Array<string | number>) => (path.length ? path.join('.') : 'body');

/** A value of a JSON type the schema does not admit. */
function wrongTypeFor(s: Schema, c: CaseContext, r: Random): unknown {
  const types = typesOf(s, c.resolve);
  if (types.has('any')) return undefined;
  const candidates: unknown[] = [
    'text',
    '',
    '1',
    'true',
    7,
    -1,
    1.5,
    true,
    false,
    null,
    [],
    ['x'],
    [1, 2],
    {},
    { a: 1 },
  ].filter((v) => !types.has(jsonType(v)) && !(jsonType(v) === 'integer' && types.has('number')));
  return candidates.length ? r.pick(candidates) : undefined;
}

/** A value of the right type that breaks a bound, a pattern or an enum the schema states. */
function outOfRule(s: Schema, c: CaseContext, r: Random): { value: unknown; raw?: string } | undefined {
  const allowed = enumOf(s, c.resolve);
  const types = typesOf(s, c.resolve);
  const options: Array<() => { value: unknown; raw?: string } | undefined> = [];
  if (allowed && types.has('string'))
    options.push(() => ({ value: r.pick(HOSTILE_STRINGS.filter((h) => !allowed.includes(h))) }));
  if (types.has('string') && !allowed) {
    if (s.maxLength !== undefined) options.push(() => ({ value: 's'.repeat(s.maxLength! + 1 + r.int(1000)) }));
    if (s.minLength !== undefined && s.minLength > 0) options.push(() => ({ value: '' }));
    if (s.pattern) {
      const re = new RegExp(s.pattern, 'u');
      const bad = HOSTILE_STRINGS.filter((h) => !re.test(h));
      if (bad.length) options.push(() => ({ value: r.pick(bad) }));
    }
  }
  if (types.has('integer') || types.has('number')) {
    if (s.minimum !== undefined) options.push(() => ({ value: s.minimum! - 1 - r.int(1000) }));
    if (s.maximum !== undefined) options.push(() => ({ value: s.maximum! + 1 + r.int(1000) }));
    options.push(() => ({ value: 'HUGE', raw: r.pick([HUGE_NUMBER, '-1e400', '1e308000']) }));
    if (types.has('integer') && !types.has('number')) options.push(() => ({ value: 0.5 }));
  }
  if (types.has('array')) {
    if (s.maxItems !== undefined)
      options.push(() => ({
        value: Array.from({ length: s.maxItems! + 1 }, () => sampleOf(s.items ?? {}, c.resolve)),
      }));
    if (s.minItems !== undefined && s.minItems > 0) options.push(() => ({ value: [] }));
  }
  if (options.length === 0) return undefined;
  return r.pick(options)();
}

function bodyCase(c: CaseContext, what: string, value: unknown, raw?: { token: string; text: string }): FuzzCase {
  let text = JSON.stringify(value);
  if (raw) text = text.replace(JSON.stringify(raw.token), raw.text);
  return build(c, what, { body: text });
}

const bodyField: Mutation = (c, r) => {
  if (!c.op.body) return undefined;
  const value = baseBodyValue(c);
  const slots = slotsOf(value, c.op.body, c);
  const slot = r.pick(slots);
  const choice = r.int(3);
  if (choice === 0) {
    const wrong = wrongTypeFor(slot.schema, c, r);
    if (wrong !== undefined)
      return bodyCase(c, `body ${where(slot.path)} of the wrong type: ${show(wrong)}`, setAt(value, slot.path, wrong));
  }
  if (choice === 1) {
    const bad = outOfRule(slot.schema, c, r);
    if (bad) {
      const token = `__fuzz_raw_${r.int(1e9)}__`;
      return bodyCase(
        c,
        `body ${where(slot.path)} breaks its rule: ${show(bad.raw ?? bad.value)}`,
        setAt(value, slot.path, bad.raw ? token : bad.value),
        bad.raw ? { token, text: bad.raw } : undefined,
      );
    }
  }
  // Missing required, or an unknown key (prototype keys among them) in an object of the body.
  const objects = slots.filter((x) => c.resolve(x.schema).properties);
  if (objects.length === 0) return undefined;
  const obj = r.pick(objects);
  const schema = c.resolve(obj.schema);
  const here = obj.path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value) as Record<
    string,
    unknown
  >;
  const required = (schema.required ?? []).filter((k) => k in here);
  if (required.length && r.chance(0.5)) {
    const key = r.pick(required);
    deleteAt(value, [...obj.path, key]);
    return bodyCase(c, `body ${where([...obj.path, key])} missing`, value);
  }
  const key = r.pick([
    'surprise',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    'ü',
    'k'.repeat(300),
  ]);
  here[key] = r.pick([true, 1, 'x', {}, [], null]);
  return bodyCase(c, `body ${where([...obj.path, key])} is an unknown field`, value);
};

const bodyWhole: Mutation = (c, r) => {
  if (!c.op.body) return undefined;
  const sample = baseBody(c)!;
  const kind = r.int(8);
  if (kind === 0) return build(c, 'body is not JSON', { body: r.pick(BAD_JSON) });
  if (kind === 1) return build(c, 'body is not an object', { body: r.pick(NON_OBJECT_BODIES) });
  if (kind === 2) {
    const depth = r.pick([65, 100, 1000, 20000]);
    const open = r.chance(0.5) ? '['.repeat(depth) : '{"a":'.repeat(depth);
    const close = open.startsWith('[') ? ']'.repeat(depth) : '}'.repeat(depth);
    return build(c, `body nests ${depth} levels`, { body: `${sample.slice(0, -1)},"deep":${open}1${close}}` });
  }
  if (kind === 3) {
    // Over the 1 MiB body limit: a huge field, a huge array, or plain padding.
    const size = 1024 * 1024 + 1 + r.int(512 * 1024);
    const pad = r.pick([
      () => `${sample.slice(0, -1)},"huge":"${'h'.repeat(size)}"}`,
      () => `${sample.slice(0, -1)},"many":[${'1,'.repeat(size / 2)}1]}`,
      () => `${sample}${' '.repeat(size)}`,
    ])();
    return build(c, `body of ${pad.length} bytes (over 1 MiB)`, { body: pad });
  }
  if (kind === 4) {
    const key = r.pick(['__proto__', 'constructor']);
    const poison = key === '__proto__' ? '{"polluted":true,"isAdmin":true}' : '{"prototype":{"polluted":true}}';
    return build(c, `body with a ${key} key`, { body: `{"${key}":${poison},${sample.slice(1)}` });
  }
  if (kind === 5) {
    const ct = r.pick(BAD_CONTENT_TYPES);
    return build(c, `content-type ${show(ct)}`, { body: sample, headers: { 'content-type': ct } });
  }
  if (kind === 6) {
    return build(c, 'content-type application/json; charset=utf-16 with a UTF-16 body', {
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sample, 'utf16le')]),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
  }
  if (c.op.bodyRequired) {
    const empty = r.pick<[string, string | null, Record<string, string | undefined>]>([
      ['no body', null, {}],
      ['an empty JSON body', '', { 'content-type': 'application/json' }],
      ['a body without content-type', sample, { 'content-type': undefined }],
    ]);
    return build(c, empty[0], { body: empty[1], headers: empty[2] });
  }
  return undefined;
};

/**
 * Fields that take any text (a person's name, a reason, a cloud's own identifiers): a hostile value there is
 * still a value. Only an absurd size must be refused (nothing of the sort belongs in a Kubernetes object).
 */
const FREE_TEXT = new Set([
  'by',
  'reason',
  'holder',
  'description',
  'region',
  'instanceType',
  'sshKey',
  'accessKeyID',
  'secretAccessKey',
  'servicePrincipalJSON',
  'serviceAccountJSON',
  'projectID',
  'gcpProjectID',
  'baseDomainResourceGroupName',
  'azureBaseDomainResourceGroupName',
  'pullSecret',
  'owner',
  'architecture',
  'platform',
  'networkType',
  'annotations',
  'userTags',
]);

/** Text no name, duration, time, zone, date, cron, URL, reference or label value can be. */
const SEMANTIC_HOSTILE: readonly string[] = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  'a\u0000b',
  'a\r\nX-Injected: 1',
  '\t',
  'ümlaut',
  '名前',
  '😀',
  '\ud800',
  '\u202e',
  'x'.repeat(300),
  'z'.repeat(100_000),
  '-dash',
  '__proto__',
  '"',
  "'; DROP TABLE x;--",
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%00',
  '!',
];

/** Fields whose value names a hub. */
const HUB_FIELDS = new Set(['hub', 'hubs', 'from', 'to']);

/** Keys no label, annotation or tag map can have. */
const HOSTILE_KEYS: readonly string[] = [
  '',
  ' ',
  'a b',
  'ü',
  '-x',
  'x'.repeat(300),
  'a/b/c',
  '/x',
  'x/',
  '\u0000',
  '😀',
];

/** Schema-valid text of the wrong meaning in one string field: the service behind the schema must refuse it. */
const bodyMeaning: Mutation = (c, r) => {
  if (!c.op.body) return undefined;
  const value = baseBodyValue(c);
  const slots = slotsOf(value, c.op.body, c).filter((x) => {
    const t = typesOf(x.schema, c.resolve);
    return x.path.length > 0 && t.has('string') && !enumOf(x.schema, c.resolve);
  });
  const records = slotsOf(value, c.op.body, c).filter(
    (x) => typeof c.resolve(x.schema).additionalProperties === 'object' && !c.resolve(x.schema).properties,
  );
  const names = (path: Array<string | number>) => path.filter((k): k is string => typeof k === 'string');
  if (records.length && (slots.length === 0 || r.chance(0.25))) {
    const rec = r.pick(records);
    const here = rec.path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value) as Record<
      string,
      unknown
    >;
    const free = FREE_TEXT.has(names(rec.path).at(-1) ?? '');
    const key = r.pick(HOSTILE_KEYS);
    here[key] = free ? 'v' : r.pick(['v', ...SEMANTIC_HOSTILE.filter((v) => v !== '')]);
    return bodyCase(c, `body ${where(rec.path)} with the key ${show(key)}: ${show(here[key])}`, value);
  }
  if (slots.length === 0) return undefined;
  const slot = r.pick(slots);
  const free = names(slot.path).some((k) => FREE_TEXT.has(k));
  // A hub is looked up by name: one every JavaScript object has must still be an unknown hub.
  const hubField = names(slot.path).some((k) => HUB_FIELDS.has(k));
  const text = free
    ? 'z'.repeat(300_000 + r.int(100_000))
    : hubField && r.chance(0.5)
      ? r.pick([...PROTOTYPE_NAMES, '__proto__', '__defineGetter__'])
      : r.pick(SEMANTIC_HOSTILE);
  return bodyCase(c, `body ${where(slot.path)}=${show(text)}`, setAt(value, slot.path, text));
};

/** A body sent to an operation that takes none. */
const unexpectedBody: Mutation = (c, r) => {
  if (c.op.body || c.op.method === 'GET') return undefined;
  const body = r.pick([
    '{"dryRun":true}',
    '{"force":true}',
    '[1]',
    '"x"',
    '{"__proto__":{"x":1}}',
    '{"a":{"b":{"c":[]}}}',
  ]);
  return build(c, `a body where none is taken: ${body}`, { body });
};

// --- methods and headers ---------------------------------------------------------------------------------------

const badMethod: Mutation = (c, r) => {
  const unused = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !c.pathMethods.has(m));
  const method = r.pick([...unused, ...ODD_METHODS]);
  return build(c, `method ${method}`, { method });
};

const badAuthorization: Mutation = (c, r) => {
  const value = r.pick(hostileAuthorizations(c.token));
  return build(c, `authorization ${show(value)}`, {
    headers: { authorization: value === '' && r.chance(0.5) ? undefined : value },
  });
};

const badIdempotencyKey: Mutation = (c, r) => {
  if (c.op.method !== 'POST') return undefined;
  const key = r.pick(HOSTILE_HEADER_VALUES.filter((v) => !/^[\x21-\x7e]{1,255}$/.test(v)));
  return build(c, `idempotency-key ${show(key)}`, { headers: { 'idempotency-key': key } });
};

const MUTATIONS: Array<[Mutation, number]> = [
  [pathParam, 4],
  [queryParam, 3],
  [unknownQuery, 1],
  [freeQuery, 1],
  [bodyField, 6],
  [bodyWhole, 4],
  [bodyMeaning, 6],
  [unexpectedBody, 1],
  [badMethod, 1],
  [badAuthorization, 1],
  [badIdempotencyKey, 1],
];

/** `rounds` random cases for the operation; each may also carry hostile X-Request-Id / Idempotency-Key noise. */
export function randomCases(c: CaseContext, r: Random, rounds: number): FuzzCase[] {
  const weighted = MUTATIONS.flatMap(([m, w]) => Array.from({ length: w }, () => m));
  const out: FuzzCase[] = [];
  for (let tries = 0; out.length < rounds && tries < rounds * 20; tries++) {
    const made = r.pick(weighted)(c, r);
    if (!made) continue;
    if (r.chance(0.3)) {
      const v = r.pick(HOSTILE_HEADER_VALUES);
      made.headers['x-request-id'] = v;
      made.what += `, x-request-id ${show(v)}`;
    }
    out.push(made);
  }
  return out;
}

/** One case of each kind that applies, so every operation meets every kind whatever the seed. */
export function everyKind(c: CaseContext, r: Random): FuzzCase[] {
  return MUTATIONS.map(([m]) => m(c, r)).filter((x): x is FuzzCase => x !== undefined);
}

export function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 80 ? `${s.slice(0, 60)}…(${s.length} chars)` : s;
}
