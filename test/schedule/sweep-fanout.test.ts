// A sweep's per-cluster jobs run on the cluster's hub, which here is also the state hub where the sweep runs, with
// one worker slot: the sweep must give its slot up while it waits for them (as a BullMQ parent in
// `waiting-children`), or it would wait for jobs queued behind itself until its deadline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers } from '../../src/schedules/schedule-timers.js';
import type { JobView } from '../../src/services/ports.js';
import { jobIds } from '../../src/services/job-ids.js';
import { jobOf } from '../../src/services/job-definition.js';
import { SWEEP_JOB } from '../../src/services/schedules/schedule-jobs.js';
import type { HibernationSchedule } from '../../src/services/schedules/schedule-resource.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { adoptCluster, events, HUB, STATE_NS, startBed, waitJob, waitPower, type Bed } from './support.js';

// Saturday noon in Berlin: outside the weekday window, so the schedule says Hibernating.
const SATURDAY = Date.parse('2026-11-21T11:00:00Z');
const NS = 'team-solo';
const NAMES = ['one', 'two', 'three'];
let bed: Bed;

/** Resolves with the first view of the job that passes `test` (the job may not exist yet). */
function seen(id: string, test: (j: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const off = bed.system.queue.watch(id, (j) => {
      if (!test(j)) return;
      off();
      resolve(j);
    });
  });
}

beforeAll(async () => {
  bed = await startBed(SATURDAY, { env: { BEEKEEPER_CONCURRENCY: '1' } });
  expect(bed.system.config.hubs[0]!.concurrency).toBe(1);
  for (const name of NAMES) await adoptCluster(bed, NS, name);
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'solo',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      safety: { allowHibernationInFirstDay: { reason: 'clusters adopted by this test just now' } },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: 'beekeeper', name: 'solo' }, (o) => o, {
    timeoutMs: 10_000,
  });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('a sweep on a state hub with one worker slot', () => {
  it('waits for its cluster jobs in waiting-children, so they run on the same hub and it completes', async () => {
    // Each power patch takes a moment, so the sweep is seen waiting while its children run one by one.
    bed.sim.hubs[0]!.server.faults.set({ latency: [{ verb: 'patch', resource: 'clusterdeployments', ms: 500 }] });
    try {
      const run = await bed.app.inject({ method: 'POST', url: '/v1/schedules/solo/run' });
      expect(run.statusCode, run.body).toBe(202);
      const sweepId = run.json<{ job: JobView }>().job.id;
      const childId = (name: string) => `${HUB}.${sweepId}.${jobIds.sweepChild({ hub: HUB, namespace: NS, name })}`;

      const parentStates: string[] = [];
      const stop = bed.system.queue.watch(sweepId, (j) => parentStates.push(j.state));
      // A child holds the hub's only slot, so the sweep is not holding it: it waits without one.
      await Promise.race(NAMES.map((name) => seen(childId(name), (j) => j.state === 'active')));
      const res = await bed.app.inject({ method: 'GET', url: `/v1/jobs/${sweepId}` });
      expect(res.statusCode).toBe(200);
      const waiting = res.json<{ job: JobView }>().job;
      expect(waiting.state).toBe('waiting-children');
      expect(waiting.steps).toContainEqual(
        expect.objectContaining({ step: 'FannedOut', message: 'Waiting for 3 cluster jobs' }),
      );

      const done = await waitJob(bed, sweepId);
      stop();
      expect(done.state).toBe('completed');
      expect(parentStates).toContain('waiting-children');
      const summary = done.result as SweepSummary;
      expect(summary.acted.map((c) => c.name).sort()).toEqual([...NAMES].sort());
      expect(summary.counts).toEqual({ acted: 3, skipped: 0, failed: 0 });
      expect(done.steps.map((s) => s.step)).toEqual(['Planned', 'FannedOut', 'Done']);
      for (const name of NAMES) {
        expect((await bed.system.queue.get(childId(name)))?.state).toBe('completed');
        expect((await events(bed, NS, name)).map((e) => e.reason)).toContain('ScheduledHibernate');
      }
    } finally {
      bed.sim.hubs[0]!.server.faults.clear();
    }
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
      const applies = (await bed.system.queue.list({ type: 'schedule.apply', limit: 100 })).filter(
        (j) => j.id.startsWith(`${id}.`) || j.id.startsWith(`${HUB}.${id}.`),
      );
      expect(applies).toHaveLength(3);
      await Promise.all(NAMES.map((name) => waitPower(bed, NS, name, 'Running')));
    } finally {
      timers.close();
    }
  });
});
