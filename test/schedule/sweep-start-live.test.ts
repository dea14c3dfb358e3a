// An edge sweep plans from the informer-cached schedule while its live GET of the schedule is in flight (so the
// GET's round trip is not added to the time from the edge to the first PATCH), but it acts on what the GET says:
// a schedule changed between the cache and the GET is planned again from the GET's version, and an edge the hub
// records as swept (a record the cache has not seen yet) is not acted on at all. The hub below holds every GET of
// a schedule for a moment, and the change lands while the sweep waits for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { adoptCluster, cd, events, HUB, STATE_NS, startBed, waitJob, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const OLD_NS = 'live-old';
const NEW_NS = 'live-new';
const RECORDED_NS = 'live-recorded';
const NAMES = ['c0', 'c1', 'c2'];
/** How long the hub holds a GET of a schedule: the change below lands well within it. */
const GET_HELD_MS = 1500;
let bed: Bed;

async function createSchedule(name: string, end: string, namespace: string): Promise<void> {
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name,
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end }],
      targets: { namespaces: [namespace] },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: STATE_NS, name }, (o) => o, {
    timeoutMs: 10_000,
  });
}

/** Moves the clocks just past the edge and resolves once its sweep job is running (its GET then on the wire). */
async function sweepStarted(schedule: string, edge: string): Promise<string> {
  const id = `${HUB}.${jobIds.sweep(schedule, at(edge))}`;
  bed.clock.set(at(edge) + 500);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sweep ${id} did not start`)), 30_000);
    const off = bed.system.queue.watch(id, (job) => {
      if (job.state === 'waiting') return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
  return id;
}

beforeAll(async () => {
  bed = await startBed(at('2026-11-22T10:00:00Z'), { roles: ['api', 'worker', 'scheduler'] });
  for (const ns of [OLD_NS, NEW_NS, RECORDED_NS]) for (const n of NAMES) await adoptCluster(bed, ns, n);
  bed.clock.set(at('2026-11-23T12:00:00Z')); // past the install grace period
  await createSchedule('moved', '18:00', OLD_NS);
  await createSchedule('recorded', '19:00', RECORDED_NS);
}, 120_000);

afterAll(async () => {
  bed?.sim.hubs[0]!.server.faults.clear();
  await bed?.close();
});

describe('an edge sweep checks the cached schedule against the hub before it acts', () => {
  it('plans again from the GET when the schedule changed after the cache was read', async () => {
    bed.sim.hubs[0]!.server.faults.set({
      latency: [{ verb: 'get', resource: 'hibernationschedules', ms: GET_HELD_MS }],
    });
    let summary: SweepSummary;
    try {
      const id = await sweepStarted('moved', '2026-11-23T18:00:00Z');
      // The cache still says OLD_NS: the plan made from it would hibernate OLD_NS's clusters.
      await bed.system.store.mergePatch(
        'HibernationSchedule',
        { hub: HUB, namespace: STATE_NS, name: 'moved' },
        { spec: { targets: { namespaces: [NEW_NS] } } },
      );
      summary = (await waitJob(bed, id, 60_000)).result as SweepSummary;
    } finally {
      bed.sim.hubs[0]!.server.faults.clear();
    }
    expect(summary.counts).toEqual({ acted: NAMES.length, skipped: 0, failed: 0 });
    expect(summary.acted.map((c) => `${c.namespace}/${c.name}`).sort()).toEqual(NAMES.map((n) => `${NEW_NS}/${n}`));
    for (const n of NAMES) {
      expect(cd(bed, OLD_NS, n).spec?.powerState ?? 'Running').toBe('Running');
      expect((await events(bed, OLD_NS, n)).filter((e) => e.reason === 'ScheduledHibernate')).toEqual([]);
    }
  }, 90_000);

  it('acts on nothing when the hub records the edge as swept and the cache does not yet', async () => {
    bed.sim.hubs[0]!.server.faults.set({
      latency: [{ verb: 'get', resource: 'hibernationschedules', ms: GET_HELD_MS }],
    });
    const edge = '2026-11-23T19:00:00.000Z';
    let summary: SweepSummary;
    try {
      const id = await sweepStarted('recorded', edge);
      // What a run of this edge before a Redis flush wrote (the resync would enqueue the edge again, same id).
      const record = {
        edge,
        action: 'hibernate',
        mode: 'edge',
        jobId: id,
        dryRun: false,
        startedAt: '2026-11-23T19:00:00.100Z',
        finishedAt: '2026-11-23T19:00:00.400Z',
        acted: 0,
        skipped: 0,
        failed: 0,
        skippedReasons: {},
      };
      await bed.system.store.mergePatch(
        'HibernationSchedule',
        { hub: HUB, namespace: STATE_NS, name: 'recorded' },
        { status: { lastSweep: record } },
        { subresource: 'status' },
      );
      summary = (await waitJob(bed, id, 60_000)).result as SweepSummary;
    } finally {
      bed.sim.hubs[0]!.server.faults.clear();
    }
    expect(summary.alreadyDone).toMatchObject({ edge, finishedAt: '2026-11-23T19:00:00.400Z' });
    expect(summary.acted).toEqual([]);
    for (const n of NAMES) {
      expect(cd(bed, RECORDED_NS, n).spec?.powerState ?? 'Running').toBe('Running');
      expect((await events(bed, RECORDED_NS, n)).filter((e) => e.reason === 'ScheduledHibernate')).toEqual([]);
    }
  }, 90_000);
});
