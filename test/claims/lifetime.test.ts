import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/hive/claims/duration.js';
import { claimLifetime, extendedLifetime, lifetimeLimits } from '../../src/hive/claims/lifetime.js';
import { Invalid } from '../../src/hive/errors.js';

const fallback = { defaultLifetime: '4h', maximumLifetime: '24h' };
const noPolicy = {};
const h = 3_600_000;

function refusal(fn: () => unknown): { field?: string; reason?: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof Invalid) return e.fields[0]!;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('claim lifetimes', () => {
  it('parses Go durations only', () => {
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('1.5h')).toBe(90 * 60_000);
    expect(parseDuration('2d')).toBeUndefined();
    expect(formatDuration(90 * 60_000)).toBe('1h30m');
  });

  it('without an ExpiryPolicy: the smaller of pool and fallback maximum, and the default capped to it', () => {
    expect(lifetimeLimits({ default: '12h', maximum: '8h' }, noPolicy, fallback)).toEqual({
      defaultMs: 8 * h,
      defaultFrom: 'pool',
      maximumMs: 8 * h,
      maximumFrom: 'pool',
    });
    expect(lifetimeLimits({ maximum: '48h' }, noPolicy, fallback)).toEqual({
      defaultMs: 4 * h,
      defaultFrom: 'fallback',
      maximumMs: 24 * h,
      maximumFrom: 'fallback',
    });
  });

  it('an ExpiryPolicy replaces the fallback; the strictest of pool and policy wins, and the refusal names the policy', () => {
    const caps = { maxLifetimeMs: 3 * h, maxFrom: 'ci-short', defaultLifetimeMs: 2 * h, defaultFrom: 'ci-short' };
    const limits = lifetimeLimits({ default: '6h', maximum: '8h' }, caps, fallback);
    expect(limits).toEqual({
      defaultMs: 2 * h,
      defaultFrom: 'policy',
      maximumMs: 3 * h,
      maximumFrom: 'policy',
      maximumPolicy: 'ci-short',
    });
    expect(refusal(() => extendedLifetime({ extendBy: '2h' }, 2 * h, h, limits))).toEqual({
      field: 'extendBy',
      reason:
        'would make the lifetime 4h, beyond the maximum 3h (maxLifetime of ExpiryPolicy ci-short); at most 1h more is allowed',
    });
    // A policy looser than the fallback lifts it: the fallback applies only where no policy gives a maximum.
    expect(lifetimeLimits(undefined, { maxLifetimeMs: 100 * h, maxFrom: 'long' }, fallback)).toMatchObject({
      maximumMs: 100 * h,
      maximumFrom: 'policy',
      defaultMs: 4 * h,
      defaultFrom: 'fallback',
    });
    expect(
      refusal(() =>
        claimLifetime('9h', lifetimeLimits({ maximum: '8h' }, { maxLifetimeMs: 24 * h, maxFrom: 'x' }, fallback)),
      ).reason,
    ).toContain("the pool's claimLifetime.maximum");
  });

  it('refuses a requested lifetime beyond the maximum instead of silently shortening it like Hive', () => {
    const limits = lifetimeLimits({ maximum: '8h' }, noPolicy, fallback);
    expect(claimLifetime(undefined, limits)).toBe('4h');
    expect(claimLifetime('90m', limits)).toBe('1h30m');
    expect(refusal(() => claimLifetime('9h', limits))).toEqual({
      field: 'lifetime',
      reason: "9h is longer than the maximum 8h (the pool's claimLifetime.maximum)",
    });
    expect(refusal(() => claimLifetime('1d', limits)).reason).toContain('not a duration');
  });

  it('extends within the cap and refuses beyond it with the room left', () => {
    const limits = lifetimeLimits({ maximum: '8h' }, noPolicy, fallback);
    expect(extendedLifetime({ extendBy: '2h' }, 4 * h, h, limits)).toBe('6h');
    expect(extendedLifetime({ lifetime: '8h' }, 4 * h, h, limits)).toBe('8h');
    expect(refusal(() => extendedLifetime({ extendBy: '5h' }, 4 * h, h, limits))).toEqual({
      field: 'extendBy',
      reason:
        "would make the lifetime 9h, beyond the maximum 8h (the pool's claimLifetime.maximum); at most 4h more is allowed",
    });
    expect(refusal(() => extendedLifetime({ lifetime: '3h' }, 4 * h, h, limits)).reason).toContain(
      'must make it longer',
    );
    expect(refusal(() => extendedLifetime({}, 4 * h, h, limits)).reason).toContain('exactly one of');
    expect(refusal(() => extendedLifetime({ extendBy: '1h' }, 4 * h, 5 * h, limits)).reason).toContain(
      'being released',
    );
  });
});
