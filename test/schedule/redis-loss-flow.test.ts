// Redis lost: a Beekeeper starting on empty Redis keys, within the catch-up deadline, sweeps an edge nobody swept
// yet but never an edge already swept (the schedule's status.lastSweep in Kubernetes remembers it), so a cluster
// someone resumed after the evening sweep stays up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import type { System } from '../../src/system.js';
import { adoptCluster, cd, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
let bed: Bed;
let timers: ScheduleTimers | undefined;
const schedule = (name: string, end: string) => ({
  name,
  timeZone: 'UTC',
  windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end }],
  targets: { namespaces: [name] },
  catchUpDeadline: '2h',
});

beforeAll(async () => {
  bed = await startBed(at('2026-11-22T10:00:00Z'));
  await Promise.all([adoptCluster(bed, 'swept', 'swept-1'), adoptCluster(bed, 'unswept', 'unswept-1')]);
  bed.clock.set(at('2026-11-23T12:00:00Z'));
  for (const body of [schedule('swept', '18:00'), schedule('unswept', '18:30')]) {
    const res = await bed.app.inject({ method: 'POST', url: '/v1/schedules', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: body.name },
      (o) => o,
      { timeoutMs: 10_000 },
    );
  }
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('after Redis is lost', () => {
  it('the 18:00 sweep hibernates, is recorded on the schedule, and someone resumes the cluster by hand', async () => {
    bed.clock.set(at('2026-11-23T18:00:00.500Z'));
    const summary = (await waitJob(bed, `${HUB}.${jobIds.sweep('swept', at('2026-11-23T18:00:00Z'))}`))
      .result as SweepSummary;
    expect(summary.acted.map((c) => c.name)).toEqual(['swept-1']);
    await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'swept' },
      (o) =>
        (o as { status?: { lastSweep?: { edge?: string; finishedAt?: string } } } | undefined)?.status?.lastSweep
          ?.finishedAt
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    timers?.close();
    timers = undefined;
    await waitPower(bed, 'swept', 'swept-1', 'Hibernating');
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: 'swept', name: 'swept-1' },
      { spec: { powerState: 'Running' } },
    );
    await waitPower(bed, 'swept', 'swept-1', 'Running');
  });

  it('a Beekeeper on empty Redis sweeps the edge nobody swept, and never the one already swept', async () => {
    bed.clock.set(at('2026-11-23T18:45:00Z')); // both edges are within the 2h deadline
    const fresh: System = await bed.startInstance(['scheduler', 'worker'], { freshRedis: true });
    // The positive control: 18:30 was never swept (the scheduler was down), so the fresh instance catches it up.
    const caughtUp = await new Promise((resolve) => {
      const off = fresh.queue.watch(`${HUB}.${jobIds.sweep('unswept', at('2026-11-23T18:30:00Z'))}`, (job) => {
        if (job.state !== 'completed' && job.state !== 'failed') return;
        off();
        resolve(job);
      });
    });
    expect(caughtUp).toMatchObject({
      state: 'completed',
      result: { mode: 'catch-up', acted: [expect.objectContaining({ name: 'unswept-1' })] },
    });
    // Both schedules were armed in the same pass; the swept edge produced no job and the cluster stays up.
    expect(await fresh.queue.get(`${HUB}.${jobIds.sweep('swept', at('2026-11-23T18:00:00Z'))}`)).toBeUndefined();
    expect(await fresh.queue.list({ type: 'schedule.sweep' })).toHaveLength(1);
    expect(cd(bed, 'swept', 'swept-1').spec?.powerState).toBe('Running');
  });
});
