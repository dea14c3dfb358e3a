// Setting and extending a cluster's expiry under policy caps. Hive's delete-after is a duration from
// creationTimestamp (REFERENCE.md §2.6), so every cap is measured from creation too: extensions can never let a
// cluster outlive its policy's maximum lifetime.
import { formatGoDuration, parseGoDuration } from '../duration.js';
import { invalid } from '../errors.js';
import type { EffectiveLimits } from './policy.js';

export interface ExpiryRequest {
  /** Absolute time (ISO 8601). */
  at?: string;
  /** Or a duration from now (Go syntax, e.g. 8h). */
  in?: string;
}

export interface ExtensionRequest {
  /** A duration added to the current expiry (or to now, if that is later). */
  extendBy?: string;
  /** Or the new absolute expiry. */
  until?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function capCheck(field: string, targetMs: number, createdMs: number, limits: EffectiveLimits): void {
  if (limits.maxLifetimeMs === undefined) return;
  const latest = createdMs + limits.maxLifetimeMs;
  if (targetMs > latest) {
    throw invalid(
      field,
      `would expire at ${iso(targetMs)}, after the latest allowed ${iso(latest)} (maxLifetime ` +
        `${formatGoDuration(limits.maxLifetimeMs)} from creation, policy ${limits.maxFrom})`,
    );
  }
}

/** The absolute expiry a request asks for, checked against `now` and the policy cap. */
export function requestedExpiry(req: ExpiryRequest, nowMs: number, createdMs: number, limits: EffectiveLimits): number {
  if ((req.at === undefined) === (req.in === undefined))
    throw invalid('at', 'give exactly one of at (a time) or in (a duration from now)');
  let target: number;
  if (req.at !== undefined) {
    target = Date.parse(req.at);
    if (Number.isNaN(target)) throw invalid('at', `"${req.at}" is not an ISO 8601 time`);
  } else {
    const ms = parseGoDuration(req.in as string);
    if (ms === undefined || ms <= 0)
      throw invalid('in', `"${req.in}" is not a positive duration such as 8h or 90m (units h, m, s; no d)`);
    target = nowMs + ms;
  }
  const field = req.at !== undefined ? 'at' : 'in';
  if (target <= nowMs) throw invalid(field, `${iso(target)} is in the past`);
  capCheck(field, target, createdMs, limits);
  return target;
}

/** The new expiry for an extension of `currentMs` (which must exist: extend means later). */
export function extendedExpiry(
  req: ExtensionRequest,
  currentMs: number,
  nowMs: number,
  createdMs: number,
  limits: EffectiveLimits,
): number {
  if ((req.extendBy === undefined) === (req.until === undefined))
    throw invalid('extendBy', 'give exactly one of extendBy (a duration to add) or until (a new time)');
  let target: number;
  if (req.extendBy !== undefined) {
    const ms = parseGoDuration(req.extendBy);
    if (ms === undefined || ms <= 0)
      throw invalid('extendBy', `"${req.extendBy}" is not a positive duration such as 4h (units h, m, s; no d)`);
    target = Math.max(currentMs, nowMs) + ms;
  } else {
    target = Date.parse(req.until as string);
    if (Number.isNaN(target)) throw invalid('until', `"${req.until}" is not an ISO 8601 time`);
    if (target <= currentMs)
      throw invalid('until', `${iso(target)} is not later than the current expiry ${iso(currentMs)}`);
  }
  capCheck(req.extendBy !== undefined ? 'extendBy' : 'until', target, createdMs, limits);
  return target;
}

/** The expiry a policy imposes on a cluster: a default where none is set, the cap where one is too late. */
export function policyExpiry(
  currentMs: number | undefined,
  createdMs: number,
  nowMs: number,
  limits: EffectiveLimits,
): { atMs: number; why: 'default' | 'cap' } | undefined {
  // Never impose an expiry with less notice than the largest warning lead: people must hear about it first.
  const notice = nowMs + (limits.warningLeadsMs[0] ?? 0);
  if (currentMs === undefined) {
    if (limits.defaultLifetimeMs === undefined && limits.maxLifetimeMs === undefined) return undefined;
    // The line above rules out both being undefined, which the compiler cannot see (the lint rule wrongly can).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const lifetime = limits.defaultLifetimeMs ?? (limits.maxLifetimeMs as number);
    return { atMs: Math.max(createdMs + lifetime, notice), why: 'default' };
  }
  if (limits.maxLifetimeMs !== undefined && currentMs > createdMs + limits.maxLifetimeMs) {
    const capped = Math.max(createdMs + limits.maxLifetimeMs, notice);
    return capped < currentMs ? { atMs: capped, why: 'cap' } : undefined;
  }
  return undefined;
}
