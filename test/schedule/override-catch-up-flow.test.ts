// A keep-awake that lapses while the scheduler is down: applied on restart if the lapse is within the schedule's
// catchUpDeadline (here 3h, not the default 1h), never replayed when older.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { adoptCluster, cd, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'night';
let bed: Bed;
let timers: ScheduleTimers | undefined;
const power = (name: string) => cd(bed, NS, name).spec?.powerState ?? 'Running';
const lapseJobId = (name: string, iso: string) => `${HUB}.${jobIds.lapse({ hub: HUB, namespace: NS, name }, at(iso))}`;

beforeAll(async () => {
  bed = await startBed(at('2026-11-22T10:00:00Z'));
  await Promise.all([adoptCluster(bed, NS, 'late'), adoptCluster(bed, NS, 'stale')]);
  bed.clock.set(at('2026-11-23T12:00:00Z'));
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'night',
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      catchUpDeadline: '3h',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  for (const [name, until] of [
    ['late', '2026-11-23T19:30:00Z'],
    ['stale', '2026-11-23T18:30:00Z'],
  ] as const) {
    const o = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/${name}/overrides`,
      payload: { type: 'keepAwake', until, by: 'dee', reason: 'late deploy' },
    });
    expect(o.statusCode, o.body).toBe(201);
    await bed.system.store.waitFor(
      'ClusterOverride',
      { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.${name}.keep-awake` },
      (x) => x,
      { timeoutMs: 10_000 },
    );
  }
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: 'beekeeper', name: 'night' }, (o) => o, {
    timeoutMs: 10_000,
  });
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('keep-awake overrides lapsing while the scheduler is down', () => {
  it('the 18:00 sweep keeps both clusters up', async () => {
    bed.clock.set(at('2026-11-23T18:00:00.500Z'));
    const summary = (await waitJob(bed, `${HUB}.${jobIds.sweep('night', at('2026-11-23T18:00:00Z'))}`))
      .result as SweepSummary;
    expect(summary.skipped.map((s) => `${s.name}:${s.reason}`).sort()).toEqual([
      'late:KeepAwakeOverride',
      'stale:KeepAwakeOverride',
    ]);
  });

  it("on restart, applies a lapse within the schedule's catchUpDeadline and never one older", async () => {
    timers?.close();
    bed.clock.set(at('2026-11-23T22:00:00Z')); // late lapsed 2.5h ago (within 3h), stale 3.5h ago
    timers = startScheduleTimers(bed.timerDeps());
    const job = await waitJob(bed, lapseJobId('late', '2026-11-23T19:30:00Z'), 10_000);
    expect(job.result).toMatchObject({ outcome: 'acted', action: 'hibernate' });
    await waitPower(bed, NS, 'late', 'Hibernating');
    const stale = await bed.system.queue.get(lapseJobId('stale', '2026-11-23T18:30:00Z'));
    expect(stale?.result ?? 'never enqueued').not.toMatchObject({ outcome: 'acted' });
    expect(power('stale')).toBe('Running');
  });
});
