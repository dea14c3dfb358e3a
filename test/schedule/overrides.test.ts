import { describe, expect, it } from 'vitest';
import { compileSchedule, overridePhase, planCluster, type PowerOverride } from '../../src/hive/schedule/index.js';

const ms = (iso: string) => Date.parse(iso);
const office = compileSchedule({
  timeZone: 'Europe/Berlin',
  windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
});
const longAgo = ms('2026-01-01T00:00:00Z');

describe('per-cluster overrides', () => {
  it('keep-awake until 22:00 skips the 18:00 hibernation and hibernates when it lapses', () => {
    const keep: PowerOverride = {
      name: 'k',
      type: 'keepAwake',
      fromMs: ms('2026-06-03T12:00:00Z'),
      untilMs: ms('2026-06-03T20:00:00Z'),
      by: 'ana',
      reason: 'demo tonight',
    };
    const plan = planCluster(
      { schedule: office, overrides: [keep], installedAtMs: longAgo },
      ms('2026-06-03T12:00:00Z'),
      ms('2026-06-04T12:00:00Z'),
    );
    expect(plan.edges.map((e) => [e.action, e.local, e.skipped ? 'skipped' : 'acts'])).toEqual([
      ['hibernate', '2026-06-03T18:00:00.000+02:00', 'skipped'],
      ['hibernate', '2026-06-03T22:00:00.000+02:00', 'acts'],
      ['resume', '2026-06-04T08:00:00.000+02:00', 'acts'],
    ]);
    expect(plan.edges[0]?.skipped).toBe('keep-awake override by ana until 2026-06-03T20:00:00.000Z: demo tonight');
    expect(plan.edges[1]?.reason).toMatch(/lapsed; the schedule says Hibernating/);
  });

  it('a keep-awake that ends inside the run window does nothing when it lapses, and expires by itself', () => {
    const keep: PowerOverride = {
      name: 'k',
      type: 'keepAwake',
      fromMs: ms('2026-06-03T07:00:00Z'),
      untilMs: ms('2026-06-03T09:00:00Z'),
      by: 'ana',
      reason: 'x',
    };
    const plan = planCluster(
      { schedule: office, overrides: [keep], installedAtMs: longAgo },
      ms('2026-06-03T07:00:00Z'),
      ms('2026-06-03T17:00:00Z'),
    );
    expect(plan.edges.filter((e) => !e.skipped)).toEqual([
      expect.objectContaining({ action: 'hibernate', local: '2026-06-03T18:00:00.000+02:00' }),
    ]);
    expect(overridePhase(keep, plan, ms('2026-06-03T08:59:00Z'))).toBe('Active');
    expect(overridePhase(keep, plan, ms('2026-06-03T09:00:00Z'))).toBe('Expired');
  });

  it('skip-next-hibernation skips exactly one hibernation, then is consumed', () => {
    const skip: PowerOverride = {
      name: 's',
      type: 'skipNextHibernation',
      fromMs: ms('2026-06-03T10:00:00Z'),
      by: 'bo',
      reason: 'long test run',
    };
    const plan = planCluster(
      { schedule: office, overrides: [skip], installedAtMs: longAgo },
      ms('2026-06-03T10:00:00Z'),
      ms('2026-06-05T00:00:00Z'),
    );
    const hibernations = plan.edges.filter((e) => e.action === 'hibernate');
    expect(hibernations.map((e) => [e.local, Boolean(e.skipped)])).toEqual([
      ['2026-06-03T18:00:00.000+02:00', true],
      ['2026-06-04T18:00:00.000+02:00', false],
    ]);
    expect(overridePhase(skip, plan, ms('2026-06-05T00:00:00Z'))).toBe('Consumed');
    expect(plan.state).toBe('Hibernating');
    const during = planCluster(
      { schedule: office, overrides: [skip], installedAtMs: longAgo },
      ms('2026-06-03T10:00:00Z'),
      ms('2026-06-03T20:00:00Z'),
    );
    expect(during.state).toBe('Running');
  });

  it('never hibernates in the first 24h after install, then catches up with the schedule', () => {
    const installed = ms('2026-06-03T14:00:00Z'); // 16:00 Berlin
    const plan = planCluster(
      { schedule: office, overrides: [], installedAtMs: installed },
      installed,
      ms('2026-06-05T00:00:00Z'),
    );
    expect(plan.edges.map((e) => [e.action, e.local, e.skipped ? 'skipped' : 'acts'])).toEqual([
      ['hibernate', '2026-06-03T18:00:00.000+02:00', 'skipped'],
      ['resume', '2026-06-04T08:00:00.000+02:00', 'acts'],
      ['hibernate', '2026-06-04T18:00:00.000+02:00', 'acts'],
    ]);
    expect(plan.edges[0]?.skipped).toMatch(/installed less than 24h ago/);
    // With the safety rule overridden, the first evening hibernates.
    const risky = planCluster(
      { schedule: office, overrides: [], installedAtMs: installed, installGraceMs: 0 },
      installed,
      ms('2026-06-04T00:00:00Z'),
    );
    expect(risky.edges.map((e) => Boolean(e.skipped))).toEqual([false]);
  });

  it('the grace period lapsing at night hibernates the cluster then', () => {
    const installed = ms('2026-06-03T20:00:00Z'); // 22:00 Berlin
    const plan = planCluster(
      { schedule: office, overrides: [], installedAtMs: installed },
      installed,
      ms('2026-06-05T00:00:00Z'),
    );
    // Thursday 18:00 is still inside the 24h; the grace ends Thursday 22:00, when the schedule says Hibernating.
    expect(plan.edges.map((e) => [e.action, e.at, Boolean(e.skipped)])).toEqual([
      ['resume', '2026-06-04T06:00:00.000Z', false],
      ['hibernate', '2026-06-04T16:00:00.000Z', true],
      ['hibernate', '2026-06-04T20:00:00.000Z', false],
    ]);
    const sunday = ms('2026-06-06T20:00:00Z');
    const weekend = planCluster(
      { schedule: office, overrides: [], installedAtMs: sunday },
      sunday,
      ms('2026-06-08T00:00:00Z'),
    );
    expect(weekend.edges.map((e) => [e.action, e.at])).toEqual([['hibernate', '2026-06-07T20:00:00.000Z']]);
  });
});
