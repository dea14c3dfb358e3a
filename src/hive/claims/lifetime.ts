// Claim lifetimes. Hive takes `spec.lifetime`, else the pool's claimLifetime.default, and silently caps it at
// claimLifetime.maximum (REFERENCE.md §5, getClaimLifetime). Beekeeper adds its own policy maximum and refuses,
// with the reason, what Hive would quietly shorten.
import { invalid } from '../errors.js';
import { formatDuration, parseDuration } from './duration.js';

export interface LifetimePolicy {
  /** Used when neither the request nor the pool names a lifetime, so no claim lives forever by accident. */
  defaultLifetime: string;
  /** No claim lives longer than this, whatever the pool allows. */
  maximumLifetime: string;
}

export interface LifetimeLimits {
  defaultMs: number;
  defaultFrom: 'pool' | 'policy';
  maximumMs: number;
  maximumFrom: 'pool' | 'policy';
}

/** The default and the cap for claims on a pool: the smaller maximum wins; a default above it is cut to it. */
export function lifetimeLimits(claimLifetime: { default?: string; maximum?: string } | undefined, policy: LifetimePolicy): LifetimeLimits {
  const policyMax = parseDuration(policy.maximumLifetime)!;
  const poolMax = claimLifetime?.maximum ? parseDuration(claimLifetime.maximum) : undefined;
  const [maximumMs, maximumFrom] = poolMax !== undefined && poolMax < policyMax ? [poolMax, 'pool' as const] : [policyMax, 'policy' as const];
  const poolDefault = claimLifetime?.default ? parseDuration(claimLifetime.default) : undefined;
  const [defaultMs, defaultFrom] = poolDefault !== undefined ? [poolDefault, 'pool' as const] : [parseDuration(policy.defaultLifetime)!, 'policy' as const];
  return { defaultMs: Math.min(defaultMs, maximumMs), defaultFrom, maximumMs, maximumFrom };
}

const maxWords = (limits: LifetimeLimits) =>
  `${formatDuration(limits.maximumMs)} (${limits.maximumFrom === 'pool' ? "the pool's claimLifetime.maximum" : "Beekeeper's policy maximum"})`;

/** The lifetime a new claim gets, as a Go duration. Throws Invalid(field) for a bad or too long request. */
export function claimLifetime(requested: string | undefined, limits: LifetimeLimits, field = 'lifetime'): string {
  if (requested === undefined) return formatDuration(limits.defaultMs);
  const ms = parseDuration(requested);
  if (ms === undefined) throw invalid(field, `"${requested}" is not a duration such as 90m or 2h (units h, m, s; no d)`);
  if (ms <= 0) throw invalid(field, 'must be longer than zero');
  if (ms > limits.maximumMs) throw invalid(field, `${requested} is longer than the maximum ${maxWords(limits)}`);
  return formatDuration(ms);
}

export interface ExtensionRequest {
  /** The new total lifetime, counted from when the claim was claimed, as Hive counts it. */
  lifetime?: string;
  /** Or: how much to add to the current lifetime. */
  extendBy?: string;
}

/**
 * The new total lifetime for an extension, or Invalid naming the field and why. `currentMs` is the lifetime in
 * force; `elapsedMs` how long the claim has been claimed (undefined while unassigned: the clock has not started).
 */
export function extendedLifetime(req: ExtensionRequest, currentMs: number, elapsedMs: number | undefined, limits: LifetimeLimits): string {
  if ((req.lifetime === undefined) === (req.extendBy === undefined)) {
    throw invalid('extendBy', 'give exactly one of extendBy (time to add) or lifetime (new total lifetime)');
  }
  const field = req.extendBy !== undefined ? 'extendBy' : 'lifetime';
  const text = (req.extendBy ?? req.lifetime)!;
  const ms = parseDuration(text);
  if (ms === undefined) throw invalid(field, `"${text}" is not a duration such as 30m or 2h (units h, m, s; no d)`);
  const next = req.extendBy !== undefined ? currentMs + ms : ms;
  if (next <= currentMs) {
    throw invalid(field, `the lifetime is already ${formatDuration(currentMs)}; an extension must make it longer (release the claim to end it sooner)`);
  }
  if (next > limits.maximumMs) {
    const room = Math.max(0, limits.maximumMs - currentMs);
    throw invalid(
      field,
      `would make the lifetime ${formatDuration(next)}, beyond the maximum ${maxWords(limits)}; ` +
        (room > 0 ? `at most ${formatDuration(room)} more is allowed` : 'the claim is already at the maximum'),
    );
  }
  if (elapsedMs !== undefined && elapsedMs >= currentMs) {
    throw invalid(field, 'the claim has already reached the end of its lifetime and is being released');
  }
  return formatDuration(next);
}
