// A sweep acts through its own bounded pool per hub (no job per cluster) and marks each cluster it changes with its
// job id in the same conditional PATCH: over two hubs it acts on every cluster once, shows how far it is while it
// runs, a run of the same job again patches nothing and adds no Event, a Conflict is judged again from a fresh read,
// and 429s from the hub are waited out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { POWER_SWEEP_ANNOTATION } from '../../src/services/clusters/power-change.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { createKubeClient } from '../../src/sim/client/index.js';
import { adoptClusters } from '../drills/clusters.js';
import { UNAVAILABLE_TRIES } from '../../src/services/schedules/sweep-cluster.js';
import { adoptCluster, createOfficeHours, HUB, startBed, waitJob, type Bed } from './support.js';

// Saturday noon in Berlin: outside the weekday window, so the schedule says Hibernating.
const SATURDAY = Date.parse('2026-11-21T11:00:00Z');
const MONDAY_NOON = Date.parse('2026-11-23T11:00:00Z');
const NEXT_SATURDAY = Date.parse('2026-11-28T11:00:00Z');
const WEST = 'west';
const NS = 'team-pool';
const PER_HUB = 30;
const CLUSTERS = [HUB, WEST].flatMap((hub) =>
  Array.from({ length: PER_HUB }, (_, i) => ({ hub, name: `${hub[0]}${String(i).padStart(2, '0')}` })),
);
const key = (c: { hub: string; name: string }) => `${c.hub}/${c.name}`;
let bed: Bed;
/** How often each cluster's spec.powerState changed to each state, from the informer's change events. */
const changes = new Map<string, number>();
let stopCounting = () => {};

const cdOf = (c: { hub: string; name: string }) =>
  bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: c.hub, namespace: NS, name: c.name });
const changesTo = (state: string) => CLUSTERS.map((c) => changes.get(`${key(c)}>${state}`) ?? 0);
const hubServer = (hub: string) => bed.sim.hubs.find((h) => h.name === hub)!.server;
const setFaults = (spec: Parameters<ReturnType<typeof hubServer>['faults']['set']>[0]) =>
  [HUB, WEST].forEach((h) => hubServer(h).faults.set(spec));
const clearFaults = () => [HUB, WEST].forEach((h) => hubServer(h).faults.clear());

async function eventsOf(c: { hub: string; name: string }, reason: string): Promise<number> {
  const all = await bed.system.store.list<KubeObject & { reason?: string; involvedObject?: { name?: string } }>(
    'Event',
    c.hub,
    { namespace: NS },
  );
  return all.filter((e) => e.involvedObject?.name === c.name && e.reason === reason).length;
}

/** Resolves when Hive reports `state` on every cluster. */
const settled = (state: 'Running' | 'Hibernating') =>
  Promise.all(
    CLUSTERS.map((c) =>
      bed.system.store.waitFor<ClusterDeployment, true>(
        'ClusterDeployment',
        { hub: c.hub, namespace: NS, name: c.name },
        (o) => (o?.status?.powerState === state && o.spec?.powerState !== undefined ? true : undefined),
        { timeoutMs: 60_000 },
      ),
    ),
  );

async function run(schedule = 'pool'): Promise<string> {
  const res = await bed.app.inject({ method: 'POST', url: `/v1/schedules/${schedule}/run` });
  expect(res.statusCode, res.body).toBe(202);
  return res.json<{ job: JobView }>().job.id;
}

beforeAll(async () => {
  // A small pool, so that the sweep takes a while and is seen midway.
  bed = await startBed(SATURDAY, { moreHubs: [WEST], env: { BEEKEEPER_SWEEP_CONCURRENCY: '4' } });
  expect(bed.system.config.hubs.map((h) => [h.name, h.sweepConcurrency])).toEqual([
    [HUB, 4],
    [WEST, 4],
  ]);
  for (const hub of [HUB, WEST]) {
    const h = bed.sim.hubs.find((x) => x.name === hub)!;
    const kube = createKubeClient({ server: h.url, token: h.token, insecureSkipTLSVerify: true });
    await adoptClusters(
      kube,
      NS,
      CLUSTERS.filter((c) => c.hub === hub).map((c) => c.name),
    );
  }
  await Promise.all(
    CLUSTERS.map((c) =>
      bed.system.store.waitFor<ClusterDeployment, true>(
        'ClusterDeployment',
        { hub: c.hub, namespace: NS, name: c.name },
        (o) => (o?.status?.powerState === 'Running' ? true : undefined),
        { timeoutMs: 60_000 },
      ),
    ),
  );
  const seen = new Map<string, string>();
  stopCounting = bed.system.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, _type, obj) => {
    if (obj.metadata.namespace !== NS) return;
    const k = `${hub}/${obj.metadata.name}`;
    const spec = obj.spec?.powerState ?? 'Running';
    if (seen.has(k) && seen.get(k) !== spec) changes.set(`${k}>${spec}`, (changes.get(`${k}>${spec}`) ?? 0) + 1);
    seen.set(k, spec);
  });
  for (const c of CLUSTERS) seen.set(key(c), cdOf(c)?.spec?.powerState ?? 'Running');
  await createOfficeHours(bed, 'pool', NS, { firstDay: true });
}, 180_000);

afterAll(async () => {
  stopCounting();
  if (bed) clearFaults();
  await bed?.close();
});

describe('a sweep over two hubs, through its own pool', () => {
  let firstId: string;

  it('acts on every cluster of both hubs once, with one Event each, and shows its progress while it runs', async () => {
    // Each PATCH takes a moment, so the sweep (4 at a time per hub) is seen midway.
    setFaults({ latency: [{ verb: 'patch', resource: 'clusterdeployments', ms: 150 }] });
    let midway: JobView | undefined;
    try {
      firstId = await run();
      midway = await new Promise<JobView>((resolve) => {
        const off = bed.system.queue.watch(firstId, (j) => {
          if (!j.progress || j.progress.done === 0 || j.progress.done >= j.progress.total) return;
          off();
          resolve(j);
        });
      });
      const res = await bed.app.inject({ method: 'GET', url: `/v1/jobs/${firstId}` });
      expect(res.statusCode).toBe(200);
      const view = res.json<{ job: JobView }>().job;
      expect(view.progress).toMatchObject({ total: CLUSTERS.length, counts: { skipped: 0, failed: 0 } });
      expect(view.steps.map((s) => s.step)).toContain('Patching');
    } finally {
      clearFaults();
    }
    expect(midway.state).toBe('active');
    const done = await waitJob(bed, firstId, 60_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    const summary = done.result as SweepSummary;
    expect(summary.counts).toEqual({ acted: CLUSTERS.length, skipped: 0, failed: 0 });
    expect(summary.acted.map(key).sort()).toEqual(CLUSTERS.map(key).sort());
    expect(done.steps.map((s) => s.step)).toEqual(['Planned', 'Patching', 'Events', 'Done']);
    expect(done.progress).toEqual({
      done: CLUSTERS.length,
      total: CLUSTERS.length,
      counts: { acted: CLUSTERS.length, skipped: 0, failed: 0 },
    });
    // No job per cluster any more.
    expect(await bed.system.queue.list({ type: 'schedule.apply', limit: 10 })).toEqual([]);
    await settled('Hibernating');
    expect(changesTo('Hibernating')).toEqual(CLUSTERS.map(() => 1));
    for (const c of CLUSTERS) {
      expect(cdOf(c)?.metadata.annotations?.[POWER_SWEEP_ANNOTATION], key(c)).toBe(firstId);
      expect(await eventsOf(c, 'ScheduledHibernate'), key(c)).toBe(1);
    }
  }, 120_000);

  it('run again under its own id, it counts its marked clusters as acted: no PATCH, no second Event, a later change kept', async () => {
    // Someone resumes one cluster after the sweep; the sweep's marker stays on it.
    const resumed = CLUSTERS[7]!;
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: resumed.hub, namespace: NS, name: resumed.name },
      { spec: { powerState: 'Running' } },
    );
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: resumed.hub, namespace: NS, name: resumed.name },
      (o) => (o?.status?.powerState === 'Running' ? true : undefined),
      { timeoutMs: 30_000 },
    );
    const again = await bed.system.queue.retry(firstId);
    expect(again?.id).toBe(firstId);
    const done = await waitJob(bed, firstId, 60_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as SweepSummary).counts).toEqual({ acted: CLUSTERS.length, skipped: 0, failed: 0 });
    expect(changesTo('Hibernating')).toEqual(CLUSTERS.map(() => 1));
    expect(cdOf(resumed)?.spec?.powerState).toBe('Running');
    for (const c of CLUSTERS) expect(await eventsOf(c, 'ScheduledHibernate'), key(c)).toBe(1);
  }, 120_000);

  it('judges a cluster again after a Conflict, and gives up on one that keeps conflicting', async () => {
    bed.clock.set(MONDAY_NOON);
    const [judged, stuck] = [CLUSTERS[3]!, CLUSTERS[PER_HUB + 5]!];
    hubServer(judged.hub).faults.set({ conflicts: [{ resource: 'clusterdeployments', name: judged.name, count: 2 }] });
    hubServer(stuck.hub).faults.set({ conflicts: [{ resource: 'clusterdeployments', name: stuck.name, count: 50 }] });
    let summary: SweepSummary;
    try {
      const done = await waitJob(bed, await run(), 60_000);
      expect(done.state, JSON.stringify(done.error)).toBe('completed');
      summary = done.result as SweepSummary;
    } finally {
      clearFaults();
    }
    // The resumed cluster is already Running: skipped, as always.
    expect(summary.skipped.map(key)).toEqual([key(CLUSTERS[7]!)]);
    expect(summary.failed).toEqual([expect.objectContaining({ hub: stuck.hub, name: stuck.name })]);
    expect(summary.counts).toEqual({ acted: CLUSTERS.length - 2, skipped: 1, failed: 1 });
    expect(summary.acted.map(key)).toContain(key(judged));
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: judged.hub, namespace: NS, name: judged.name },
      (o) => (o?.spec?.powerState === 'Running' ? true : undefined),
      { timeoutMs: 30_000 },
    );
    expect(changes.get(`${key(judged)}>Running`)).toBe(1);
    expect(cdOf(stuck)?.spec?.powerState).toBe('Hibernating');
  }, 120_000);

  it('waits out 429s from the hubs and completes', async () => {
    bed.clock.set(NEXT_SATURDAY);
    const before = changesTo('Hibernating');
    setFaults({
      errors: [{ verb: 'patch', resource: 'clusterdeployments', rate: 0.3, code: 429, retryAfterSeconds: 1 }],
    });
    let done: JobView;
    try {
      done = await waitJob(bed, await run(), 90_000);
    } finally {
      clearFaults();
    }
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    const summary = done.result as SweepSummary;
    // The stuck cluster was never resumed: it is already Hibernating.
    expect(summary.counts, JSON.stringify(summary.failed)).toEqual({
      acted: CLUSTERS.length - 1,
      skipped: 1,
      failed: 0,
    });
    await settled('Hibernating');
    expect(changesTo('Hibernating').map((n, i) => n - before[i]!)).toEqual(
      CLUSTERS.map((c) => (key(c) === key(CLUSTERS[PER_HUB + 5]!) ? 0 : 1)),
    );
  }, 120_000);

  it('keeps waiting while the hub answers 429 to every PATCH of a cluster, past the tries a 5xx would get', async () => {
    // A schedule of one cluster, so every 429 the hub sends is an answer to that cluster's PATCH.
    await adoptCluster(bed, 'team-solo', 'solo');
    await createOfficeHours(bed, 'solo', 'team-solo', { firstDay: true });
    // The hub's 429s as an operator sees them (each one also pauses the hub's requests for its Retry-After).
    const throttled = async () => {
      const res = await bed.app.inject({ method: 'GET', url: '/metrics' });
      return Number(/^beekeeper_hub_throttled_total\{hub="east"\} (\d+)$/m.exec(res.body)?.[1] ?? 0);
    };
    const from = await throttled();
    hubServer(HUB).faults.set({
      errors: [{ verb: 'patch', resource: 'clusterdeployments', rate: 1, code: 429, retryAfterSeconds: 1 }],
    });
    let id: string;
    try {
      id = await run('solo');
      // One more 429 than the tries a 5xx gets; the sweep still waits (it would have ended with the cluster failed).
      for (let i = 0; i < 600 && (await throttled()) - from < UNAVAILABLE_TRIES + 1; i++) {
        const job = await bed.system.queue.get(id);
        expect(job?.state, JSON.stringify(job?.result)).not.toBe('completed');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await throttled()) - from).toBeGreaterThanOrEqual(UNAVAILABLE_TRIES + 1);
    } finally {
      clearFaults();
    }
    const done = await waitJob(bed, id, 60_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    expect((done.result as SweepSummary).counts).toEqual({ acted: 1, skipped: 0, failed: 0 });
  }, 120_000);
});
