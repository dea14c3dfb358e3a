// Hostile path parameters, query parameters, methods and headers, each refused whatever the body.
import { HUGE_NUMBER, baseQuery, build, show, type CaseContext, type Mutation } from './fuzz-case.js';
import {
  HOSTILE_HEADER_VALUES,
  HOSTILE_STRINGS,
  INVALID_SEGMENTS,
  ODD_METHODS,
  PROTOTYPE_NAMES,
  hostileAuthorizations,
} from './fuzz-inputs.js';
import { enumOf, sampleOf, typesOf, type Parameter } from './fuzz-openapi.js';
import type { Random } from './fuzz-random.js';

export const pathParam: Mutation = (c, r) => {
  const names = c.op.params.filter((p) => p.in === 'path').map((p) => p.name);
  if (names.length === 0) return undefined;
  const name = r.pick(names);
  // A name JavaScript objects already have: only where nothing could be created under it.
  const odd = c.op.method !== 'PUT' && r.chance(0.2);
  const segment = odd ? r.pick(PROTOTYPE_NAMES) : r.pick(INVALID_SEGMENTS);
  return build(c, `path ${name}=${show(segment)}`, { params: { [name]: segment } });
};

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

export const queryParam: Mutation = (c, r) => {
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
export const unknownQuery: Mutation = (c, r) => {
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
export const freeQuery: Mutation = (c, r) => {
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

export const badMethod: Mutation = (c, r) => {
  const unused = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !c.pathMethods.has(m));
  const method = r.pick([...unused, ...ODD_METHODS]);
  return build(c, `method ${method}`, { method });
};

export const badAuthorization: Mutation = (c, r) => {
  const value = r.pick(hostileAuthorizations(c.token));
  return build(c, `authorization ${show(value)}`, {
    headers: { authorization: value === '' && r.chance(0.5) ? undefined : value },
  });
};

export const badIdempotencyKey: Mutation = (c, r) => {
  if (c.op.method !== 'POST') return undefined;
  const key = r.pick(HOSTILE_HEADER_VALUES.filter((v) => !/^[\x21-\x7e]{1,255}$/.test(v)));
  return build(c, `idempotency-key ${show(key)}`, { headers: { 'idempotency-key': key } });
};
