// Fault injection, off by default: latency, error rates, dropped watch streams and forced conflicts. Rules match
// on verb and/or resource (plural, e.g. "clusterdeployments"); a rule with neither matches every request.
import { ApiError, internalError, serviceUnavailable, tooManyRequests } from './status.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface FaultMatch {
  verb?: Verb;
  resource?: string;
}
export interface FaultSpec {
  /** Added latency before the request is served. */
  latency?: Array<FaultMatch & { ms: number }>;
  /** A share (0..1) of matching requests fails with this code; 429 and 503 carry Retry-After. */
  errors?: Array<FaultMatch & { rate: number; code: 429 | 500 | 503; retryAfterSeconds?: number }>;
  /** Open watch streams are closed after `afterMs`, and/or each second with probability `ratePerSecond`. */
  watchDrops?: { afterMs?: number; ratePerSecond?: number };
  /**
   * Updates/patches of the resource (optionally one object by name) that answer 409 Conflict: the next `count`, or
   * with `rate` a share (0..1) of them for as long as the rule stands (a busy object other writers keep changing).
   */
  conflicts?: Array<{ resource: string; name?: string; count?: number; rate?: number }>;
}

export interface Faults {
  get(): FaultSpec;
  set(spec: FaultSpec): void;
  clear(): void;
  /** Milliseconds of latency to add to this request. */
  latencyFor(verb: Verb, resource: string): number;
  /** An injected error for this request, if the dice say so. */
  errorFor(verb: Verb, resource: string): ApiError | undefined;
  /** True (and consumes one) when this write must fail with a conflict. */
  takeConflict(resource: string, name: string): boolean;
  watchDrops(): FaultSpec['watchDrops'];
  /** Called after every change, so open watch streams pick up new drop settings. */
  onChange(fn: () => void): () => void;
}

const matches = (m: FaultMatch, verb: Verb, resource: string) =>
  (!m.verb || m.verb === verb) && (!m.resource || m.resource === resource);

export function validateFaultSpec(spec: unknown): FaultSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new Error('fault spec must be an object');
  const s = spec as FaultSpec;
  for (const e of s.errors ?? []) {
    if (![429, 500, 503].includes(e.code)) throw new Error(`errors[].code must be 429, 500 or 503, not ${e.code}`);
    if (!(e.rate >= 0 && e.rate <= 1)) throw new Error('errors[].rate must be between 0 and 1');
  }
  for (const l of s.latency ?? []) if (!(l.ms >= 0)) throw new Error('latency[].ms must be a non-negative number');
  for (const c of s.conflicts ?? []) {
    if (!c.resource || (c.count === undefined) === (c.rate === undefined))
      throw new Error('conflicts[] needs resource and either count or rate');
    if (c.count !== undefined && !(c.count >= 0)) throw new Error('conflicts[].count must be a non-negative number');
    if (c.rate !== undefined && !(c.rate >= 0 && c.rate <= 1))
      throw new Error('conflicts[].rate must be between 0 and 1');
  }
  return structuredClone(s);
}

export function createFaults(initial: FaultSpec = {}, random: () => number = Math.random): Faults {
  let spec = validateFaultSpec(initial);
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const fn of listeners) fn();
  };
  return {
    get: () => structuredClone(spec),
    set(next) {
      spec = validateFaultSpec(next);
      changed();
    },
    clear() {
      spec = {};
      changed();
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    latencyFor: (verb, resource) =>
      (spec.latency ?? []).filter((l) => matches(l, verb, resource)).reduce((a, l) => a + l.ms, 0),
    errorFor(verb, resource) {
      for (const e of spec.errors ?? []) {
        if (!matches(e, verb, resource) || random() >= e.rate) continue;
        if (e.code === 429) return tooManyRequests(e.retryAfterSeconds ?? 1);
        if (e.code === 503)
          return serviceUnavailable(
            'the server is currently unable to handle the request (injected fault)',
            e.retryAfterSeconds ?? 1,
          );
        return internalError('injected fault');
      }
      return undefined;
    },
    takeConflict(resource, name) {
      for (const c of spec.conflicts ?? []) {
        if (c.resource !== resource || (c.name && c.name !== name)) continue;
        if (c.count !== undefined && c.count > 0) {
          c.count -= 1;
          return true;
        }
        if (c.rate !== undefined && random() < c.rate) return true;
      }
      return false;
    },
    watchDrops: () => spec.watchDrops,
  };
}
