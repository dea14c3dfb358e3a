// Fuzz cases for one operation: its well-formed request with one thing made hostile, so the request must be
// refused (4xx) and change nothing. A few cases on reads put odd text where the API takes any text (a filter);
// those must only not fail (no 5xx) and change nothing.
import { bodyField, bodyMeaning, bodyWhole, unexpectedBody } from './fuzz-body-cases.js';
import { show, type CaseContext, type FuzzCase, type Mutation } from './fuzz-case.js';
import { HOSTILE_HEADER_VALUES } from './fuzz-inputs.js';
import {
  badAuthorization,
  badIdempotencyKey,
  badMethod,
  freeQuery,
  pathParam,
  queryParam,
  unknownQuery,
} from './fuzz-request-cases.js';
import type { Random } from './fuzz-random.js';

export { encode, show, type CaseContext, type FuzzCase, type Target } from './fuzz-case.js';

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
