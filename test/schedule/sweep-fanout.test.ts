// A sweep on a state hub with one worker slot: the sweep job acts on its clusters itself, through its own pool, so
// it needs no second slot (before issue 14 it fanned out a job per cluster and had to give its slot up while it
// waited for them). Enqueued again under its edge's id, it is the same job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers } from '../../src/schedules/schedule-timers.js';
import type { JobView } from '../../src/services/ports.js';
import { jobIds } from '../../src/services/job-ids.js';
import { jobOf } from '../../src/services/job-definition.js';
import { SWEEP_JOB } from '../../src/services/schedules/schedule-jobs.js';
import type { HibernationSchedule } from '../../src/services/schedules/schedule-resource.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import {
  adoptCluster,
  createOfficeHours,
  events,
  HUB,
  STATE_NS,
  startBed,
  waitJob,
  waitPower,
  type Bed,
} from './support.js';

// Saturday noon in Berlin: outside the weekday window, so the schedule says Hibernating.
const SATURDAY = Date.parse('2026-11-21T11:00:00Z');
const NS = 'team-solo';
const NAMES = ['one', 'two', 'three'];
let bed: Bed;

beforeAll(async () => {
  bed = await startBed(SATURDAY, { env: { BEEKEEPER_CONCURRENCY: '1' } });
  expect(bed.system.config.hubs[0]!.concurrency).toBe(1);
  for (const name of NAMES) await adoptCluster(bed, NS, name);
  await createOfficeHours(bed, 'solo', NS, { firstDay: true });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('a sweep on a state hub with one worker slot', () => {
  it('acts on every cluster itself, in its one slot, and completes', async () => {
    const run = await bed.app.inject({ method: 'POST', url: '/v1/schedules/solo/run' });
    expect(run.statusCode, run.body).toBe(202);
    const sweepId = run.json<{ job: JobView }>().job.id;
    const done = await waitJob(bed, sweepId);
    expect(done.state).toBe('completed');
    const summary = done.result as SweepSummary;
    expect(summary.acted.map((c) => c.name).sort()).toEqual([...NAMES].sort());
    expect(summary.counts).toEqual({ acted: 3, skipped: 0, failed: 0 });
    expect(done.steps.map((s) => s.step)).toEqual(['Planned', 'Patching', 'Events', 'Done']);
    for (const name of NAMES)
      expect((await events(bed, NS, name)).map((e) => e.reason)).toContain('ScheduledHibernate');
    await Promise.all(NAMES.map((name) => waitPower(bed, NS, name, 'Hibernating')));
  });

  it('at the edge, the sweep resumes them and records the edge on the schedule; enqueued again, it is the same job', async () => {
    const timers = startScheduleTimers(bed.timerDeps());
    try {
      // Monday 08:00 in Berlin.
      bed.clock.set(Date.parse('2026-11-23T07:00:00.500Z'));
      const id = `${HUB}.${jobIds.sweep('solo', Date.parse('2026-11-23T07:00:00Z'))}`;
      const done = await waitJob(bed, id);
      const summary = done.result as SweepSummary;
      expect(summary).toMatchObject({ mode: 'edge', counts: { acted: 3, skipped: 0, failed: 0 } });
      const status = bed.system.store.cached<HibernationSchedule>('HibernationSchedule', {
        hub: HUB,
        namespace: STATE_NS,
        name: 'solo',
      })?.status;
      expect(status?.lastSweep).toMatchObject({
        edge: '2026-11-23T07:00:00.000Z',
        action: 'resume',
        jobId: id,
        acted: 3,
        failed: 0,
      });
      const again = await bed.system.queue.enqueue(
        jobOf(SWEEP_JOB, {
          schedule: 'solo',
          edgeAt: '2026-11-23T07:00:00.000Z',
          action: 'resume',
          reason: 'window start',
          mode: 'edge',
        }),
        { jobId: jobIds.sweep('solo', Date.parse('2026-11-23T07:00:00Z')), hub: HUB },
      );
      expect(again).toMatchObject({ id, state: 'completed', result: summary });
      // No job per cluster: the sweep acted itself.
      expect(await bed.system.queue.list({ type: 'schedule.apply', limit: 100 })).toEqual([]);
      await Promise.all(NAMES.map((name) => waitPower(bed, NS, name, 'Running')));
    } finally {
      timers.close();
    }
  });
});
