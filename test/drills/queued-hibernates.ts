// The scene of the queued-operations drills (issue 9: "60 never happened, and their job ids answer 404"): with no
// worker running, callers get 202 for a hundred hibernates, so their jobs wait in Redis; then Redis loses them
// (FLUSHALL, a restart without a file) or keeps them (a restart with AOF); then a worker starts. What is counted
// comes from the hub and the API, never from Redis: each cluster's power changes seen by a watch, the Events
// Beekeeper leaves, the Operations, and what each job id answers.
import { expect } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import type { ApiResource } from '../../src/sim/client/index.js';
import { adoptRunning } from './clusters.js';
import { STATE_NS, tally, until, type Drill, type Tally } from './harness.js';
import { untilJobsCompleted } from './jobs.js';
import { mapLimit } from '../../src/map-limit.js';

export const OPERATIONS: ApiResource = {
  group: 'beekeeper.io',
  version: 'v1beta1',
  plural: 'operations',
  kind: 'Operation',
  namespaced: true,
};

/**
 * The roles' environment: a resync every 2 s that leaves an Operation to its request for 5 s (instead of 30) before
 * queueing its job again, and the hub's request budget of bench/ (a hundred requests at once).
 */
export const QUICK_ENV = {
  BEEKEEPER_RESYNC_INTERVAL_SECONDS: '2',
  BEEKEEPER_OPERATION_REPAIR_GRACE_SECONDS: '5',
  BEEKEEPER_KUBE_QPS: '1000',
  BEEKEEPER_KUBE_BURST: '2000',
};

export interface QueuedHibernatesReport {
  /** Status changes to Hibernating, per cluster: the drill's tally. */
  hibernated: Tally;
  /** spec.powerState changes to Hibernating (what was asked of Hive), per cluster. */
  asked: Tally;
  /** `Hibernated` Events (Beekeeper's report that Hive got there), per cluster. */
  reported: Tally;
  /**
   * Where each job id's answer came from right after the disaster: `kubernetes` (Redis has no record of it: the view
   * is its Operation's), `requeued` (Redis has it, queued again after the disaster began: the scheduler's resync
   * found the Operation's job missing and queued it again under its id) or `redis` (Redis kept it).
   */
  sources: Record<string, number>;
  /** Milliseconds from the worker's start until every job had ended. */
  doneMs: number;
}

const ask = async (drill: Drill, path: string): Promise<JobView> => {
  for (let attempt = 0; ; attempt++) {
    const res = await drill.api<{ job: JobView }>('POST', path);
    // The api's informer may not show a cluster created a moment ago: it answers 404 until it does.
    if (res.status === 404 && attempt < 50) {
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.job;
  }
};

export async function hibernatesQueuedThen(
  drill: Drill,
  opts: { namespace: string; count: number; disaster: () => Promise<void> },
): Promise<QueuedHibernatesReport> {
  const { namespace } = opts;
  const names = Array.from({ length: opts.count }, (_, i) => `${namespace}-${String(i).padStart(3, '0')}`);
  const power = await adoptRunning(drill, namespace, names);
  try {
    const ids = new Map<string, string>();
    await mapLimit(names, 20, async (name) => {
      ids.set(name, (await ask(drill, `/v1/clusters/east/${namespace}/${name}/hibernate`)).id);
    });
    expect(new Set(ids.values()).size).toBe(names.length);
    const queued = await drill.api<{ items: JobView[] }>(
      'GET',
      '/v1/jobs?type=cluster.hibernate&state=waiting&limit=500',
    );
    expect(queued.body.items.filter((j) => j.target?.namespace === namespace)).toHaveLength(names.length);

    const disasterAt = Date.now();
    await opts.disaster();

    // Every job id answers, from Redis or, for a job Redis lost, from its Operation: never 404. The resync (every 2 s
    // here) may queue a lost job again before it is asked for, more so on a loaded machine: its new createdAt says so.
    const sources: Record<string, number> = {};
    await mapLimit(names, 25, async (name) => {
      const res = await drill.api<{ job: JobView }>('GET', `/v1/jobs/${ids.get(name)}`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      const { source, createdAt } = res.body.job;
      const from = source ?? (Date.parse(createdAt) >= disasterAt ? 'requeued' : 'redis');
      sources[from] = (sources[from] ?? 0) + 1;
    });

    const started = Date.now();
    if (!drill.roles.some((r) => r.role === 'worker' && r.running())) await drill.start('worker');
    await untilJobsCompleted(drill, ids.values(), { concurrency: 25, timeoutMs: 120_000 });
    const doneMs = Date.now() - started;

    // One Operation per request, each Succeeded.
    const ops = (await drill.kube().list(OPERATIONS, STATE_NS)).items.filter(
      (o) => o.spec.target.namespace === namespace,
    );
    expect(ops.map((o) => o.metadata.name).sort()).toEqual([...ids.values()].sort());
    expect(
      ops.filter((o) => o.status?.phase !== 'Succeeded').map((o) => `${o.metadata.name}: ${o.status?.phase}`),
    ).toEqual([]);

    // Events trail the job's end by a moment: wait for the last, then count.
    let reported: Tally | undefined;
    await until(
      'each cluster has its Hibernated Event',
      async () => (reported = tally(names, await drill.eventsFor(namespace, 'Hibernated'))).done === names.length,
      30_000,
    ).catch(() => undefined);
    return {
      hibernated: tally(names, power.reached('Hibernating')),
      asked: tally(names, power.asked('Hibernating')),
      reported: reported ?? tally(names, await drill.eventsFor(namespace, 'Hibernated')),
      sources,
      doneMs,
    };
  } finally {
    power.stop();
  }
}

/** `{expected, done, duplicated, lost}` as the drills print it. */
export const figures = ({ expected, done, duplicated, lost, unexpected }: Tally) =>
  JSON.stringify({ expected, done, duplicated, lost, ...(unexpected ? { unexpected } : {}) });

export const CLEAN = { duplicated: 0, lost: 0, unexpected: 0 };

/** Job ids Redis kept through the disaster, and those it lost (answered from their Operation, or queued again). */
export const lostEvery = (sources: Record<string, number>) => ({
  kept: sources.redis ?? 0,
  lost: (sources.kubernetes ?? 0) + (sources.requeued ?? 0),
});
