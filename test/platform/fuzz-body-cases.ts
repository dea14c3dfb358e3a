// Hostile bodies: one field of the wrong type, out of its rule, missing or unknown; text of the wrong meaning where
// the schema takes any string; bodies that are not JSON, too deep, too big, poisoned or of another content type.
import { HUGE_NUMBER, baseBody, build, show, type CaseContext, type FuzzCase, type Mutation } from './fuzz-case.js';
import {
  BAD_CONTENT_TYPES,
  BAD_JSON,
  FREE_TEXT,
  HOSTILE_KEYS,
  HOSTILE_STRINGS,
  HUB_FIELDS,
  NON_OBJECT_BODIES,
  PROTOTYPE_NAMES,
  SEMANTIC_HOSTILE,
} from './fuzz-inputs.js';
import { enumOf, jsonType, sampleOf, typesOf, type Schema } from './fuzz-openapi.js';
import type { Random } from './fuzz-random.js';
import { slotsOf, setAt, deleteAt, where, focused, enriched } from './fuzz-body-slots.js';

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

export const bodyField: Mutation = (c, r) => {
  if (!c.op.body) return undefined;
  const { value, focus } = enriched(c, r);
  const slots = focused(slotsOf(value, c.op.body, c), r, focus);
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

export const bodyWhole: Mutation = (c, r) => {
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

/** Schema-valid text of the wrong meaning in one string field: the service behind the schema must refuse it. */
export const bodyMeaning: Mutation = (c, r) => {
  if (!c.op.body) return undefined;
  const { value, focus } = enriched(c, r);
  const all = focused(slotsOf(value, c.op.body, c), r, focus);
  const slots = all.filter((x) => {
    const t = typesOf(x.schema, c.resolve);
    return x.path.length > 0 && t.has('string') && !enumOf(x.schema, c.resolve);
  });
  const records = all.filter(
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
    // A map of free text (user tags, annotations) takes any key but an absurd one.
    const key = free ? 'k'.repeat(70_000) : r.pick(HOSTILE_KEYS);
    here[key] = free ? 'v' : r.pick(['v', ...SEMANTIC_HOSTILE.filter((v) => v !== '')]);
    return bodyCase(c, `body ${where(rec.path)} with the key ${show(key)}: ${show(here[key])}`, value);
  }
  // A count no schema bounds: beyond what Kubernetes stores (int32) or JavaScript counts exactly.
  const counts = all.filter((x) => {
    const sc = c.resolve(x.schema);
    return typesOf(sc, c.resolve).has('integer') && sc.maximum === undefined;
  });
  if (counts.length && (slots.length === 0 || r.chance(0.2))) {
    const slot = r.pick(counts);
    const n = r.pick([2 ** 31, 2 ** 53 + 2, 1e15, 4294967297]);
    return bodyCase(c, `body ${where(slot.path)}=${n}`, setAt(value, slot.path, n));
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
export const unexpectedBody: Mutation = (c, r) => {
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
