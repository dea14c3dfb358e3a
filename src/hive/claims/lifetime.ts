// Claim lifetimes. Hive takes `spec.lifetime`, else the pool's claimLifetime.default, and silently caps it at
// claimLifetime.maximum (REFERENCE.md §5, getClaimLifetime). Beekeeper adds the caps of the ExpiryPolicies covering
// the claim (the strictest wins, as for clusters) and refuses, with the reason, what Hive would quietly shorten.
import { invalid } from '../errors.js';
import { formatDuration, parseDuration } from './duration.js';

/** Beekeeper's fallback when no ExpiryPolicy gives a limit, so no claim lives forever by accident. */
export interface LifetimePolicy {
  /** Used when neither the pool nor a policy names a default lifetime. */
  defaultLifetime: string;
  /** The cap when no policy gives a maxLifetime (the pool's maximum still applies if smaller). */
  maximumLifetime: string;
}

/** What the ExpiryPolicies covering a claim allow (the shape of hive/expiry's EffectiveLimits). */
export interface PolicyCaps {
  maxLifetimeMs?: number;
  /** The policy the maximum comes from. */
  maxFrom?: string;
  defaultLifetimeMs?: number;
  defaultFrom?: string;
}

export type LimitSource = 'pool' | 'policy' | 'fallback';

export interface LifetimeLimits {
  defaultMs: number;
  defaultFrom: LimitSource;
  maximumMs: number;
  maximumFrom: LimitSource;
  /** The ExpiryPolicy's name when `maximumFrom` is `policy`. */
  maximumPolicy?: string;
}

type Candidate = { ms: number; from: LimitSource; policy?: string };

/** The smallest candidate; on a tie the policy's, then the pool's (the one a person can look up and change). */
function strictest(candidates: Array<Candidate | undefined>): Candidate | undefined {
  const rank: Record<LimitSource, number> = { policy: 0, pool: 1, fallback: 2 };
  return candidates
    .filter((c): c is Candidate => c !== undefined)
    .sort((a, b) => a.ms - b.ms || rank[a.from] - rank[b.from])[0];
}

/**
 * The default and the cap for claims on a pool: the smaller of the pool's claimLifetime and the policies' limits;
 * the fallback only where no policy gives one. A default above the maximum is cut to it.
 */
export function lifetimeLimits(
  claimLifetime: { default?: string; maximum?: string } | undefined,
  caps: PolicyCaps,
  fallback: LifetimePolicy,
): LifetimeLimits {
  const poolMax = claimLifetime?.maximum ? parseDuration(claimLifetime.maximum) : undefined;
  const policyMax: Candidate =
    caps.maxLifetimeMs !== undefined
      ? { ms: caps.maxLifetimeMs, from: 'policy', policy: caps.maxFrom }
      : { ms: parseDuration(fallback.maximumLifetime)!, from: 'fallback' };
  const max = strictest([poolMax !== undefined ? { ms: poolMax, from: 'pool' } : undefined, policyMax])!;
  const poolDefault = claimLifetime?.default ? parseDuration(claimLifetime.default) : undefined;
  const def = strictest([
    poolDefault !== undefined ? { ms: poolDefault, from: 'pool' } : undefined,
    caps.defaultLifetimeMs !== undefined
      ? { ms: caps.defaultLifetimeMs, from: 'policy', policy: caps.defaultFrom }
      : undefined,
  ]) ?? { ms: parseDuration(fallback.defaultLifetime)!, from: 'fallback' as const };
  return {
    defaultMs: Math.min(def.ms, max.ms),
    defaultFrom: def.from,
    maximumMs: max.ms,
    maximumFrom: max.from,
    ...(max.policy ? { maximumPolicy: max.policy } : {}),
  };
}

const SOURCE_WORDS: Record<LimitSource, (limits: LifetimeLimits) => string> = {
  pool: () => "the pool's claimLifetime.maximum",
  policy: (l) => `maxLifetime of ExpiryPolicy ${l.maximumPolicy ?? '?'}`,
  fallback: () => "Beekeeper's fallback maximum: no ExpiryPolicy with a maxLifetime covers this claim",
};

const maxWords = (limits: LifetimeLimits) =>
  `${formatDuration(limits.maximumMs)} (${SOURCE_WORDS[limits.maximumFrom](limits)})`;

/** The lifetime a new claim gets, as a Go duration. Throws Invalid(field) for a bad or too long request. */
export function claimLifetime(requested: string | undefined, limits: LifetimeLimits, field = 'lifetime'): string {
  if (requested === undefined) return formatDuration(limits.defaultMs);
  const ms = parseDuration(requested);
  if (ms === undefined)
    throw invalid(field, `"${requested}" is not a duration such as 90m or 2h (units h, m, s; no d)`);
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
export function extendedLifetime(
  req: ExtensionRequest,
  currentMs: number,
  elapsedMs: number | undefined,
  limits: LifetimeLimits,
): string {
  if ((req.lifetime === undefined) === (req.extendBy === undefined)) {
    throw invalid('extendBy', 'give exactly one of extendBy (time to add) or lifetime (new total lifetime)');
  }
  const field = req.extendBy !== undefined ? 'extendBy' : 'lifetime';
  const text = (req.extendBy ?? req.lifetime)!;
  const ms = parseDuration(text);
  if (ms === undefined) throw invalid(field, `"${text}" is not a duration such as 30m or 2h (units h, m, s; no d)`);
  const next = req.extendBy !== undefined ? currentMs + ms : ms;
  if (next <= currentMs) {
    throw invalid(
      field,
      `the lifetime is already ${formatDuration(currentMs)}; an extension must make it longer (release the claim to end it sooner)`,
    );
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
