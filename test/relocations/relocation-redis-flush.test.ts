// A relocation accepted through the API survives Redis losing everything mid-way: with wave 1 moved and wave 2
// waiting out its pause, every key under the bed's prefix goes (only this bed's: the Redis server is shared). The
// Operations repairer, as the resync runs it, queues the job again from its Operation; the relocation resumes from
// its status and ends Succeeded, every cluster moved exactly once, with one ClusterRelocate all along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { repairOperations } from '../../src/services/operations/repair-operations.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import type { Relocation } from '../../src/services/relocations/relocation-run.js';
import { dropKeys } from '../../src/system/embedded-prefix.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

const NAMES = ['rf-a', 'rf-b', 'rf-c', 'rf-d'];
const PAUSE_SECONDS = 600;

let bed: TwoHubBed;
/** Every ClusterRelocate uid seen on east, by name; every ClusterDeployment uid seen on west, by name. */
const relocatesOnEast = new Map<string, Set<string>>();
const copiesOnWest = new Map<string, Set<string>>();
const offs: Array<() => void> = [];
const seen = (map: Map<string, Set<string>>, name: string, uid: string | undefined) => {
  if (!uid) return;
  map.set(name, (map.get(name) ?? new Set()).add(uid));
};

async function install(namespace: string) {
  await prerequisites(bed, EAST, namespace);
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/clusters?wait=60',
    payload: createBody(EAST, namespace, namespace),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<{ job: JobView }>().job.state).toBe('completed');
  await bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: EAST, namespace, name: namespace },
    (cd) => (cd?.status?.powerState === 'Running' ? true : undefined),
    { timeoutMs: 30_000 },
  );
}

/** FLUSHALL, for this bed only: every key under its prefix (queues, job history, idempotency records). */
async function flushBedPrefix() {
  const redis = createRedis(bed.config.redis, 'producer');
  try {
    await waitReady(redis);
    await dropKeys(redis, bed.config.redis.prefix);
    return await redis.keys(`${bed.config.redis.prefix}*`);
  } finally {
    await closeRedis(redis);
  }
}

/** One pass of the Operations repairer, as the scheduler's resync runs it. */
const repair = () =>
  repairOperations({
    store: bed.system.store,
    queue: bed.system.queue,
    clock: bed.clock,
    log: createLogger({ level: 'silent' }),
    stateHub: bed.config.stateHub,
    stateNamespace: bed.config.stateNamespace,
    jobs: bed.config.jobs,
    graceMs: bed.config.resync.operationGraceSeconds * 1000,
  });

beforeAll(async () => {
  bed = await startTwoHubBed();
  offs.push(
    bed.system.store.onChange<KubeObject>('ClusterRelocate', (hub, _type, o) => {
      if (hub === EAST) seen(relocatesOnEast, o.metadata.name, o.metadata.uid);
    }),
    bed.system.store.onChange<KubeObject>('ClusterDeployment', (hub, _type, o) => {
      if (hub === WEST) seen(copiesOnWest, `${o.metadata.namespace}/${o.metadata.name}`, o.metadata.uid);
    }),
  );
  await Promise.all([...NAMES, 'rf-e'].map(install));
}, 120_000);

afterAll(async () => {
  for (const off of offs) off();
  await bed?.close();
});

describe('a relocation whose Redis is flushed between waves', () => {
  it('resumes from its Operation and status: Succeeded, each cluster moved once, one ClusterRelocate', async () => {
    const { store } = bed.system;
    const ref = { hub: EAST, namespace: bed.config.stateNamespace };
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/relocations',
      payload: {
        from: EAST,
        to: WEST,
        clusters: NAMES.map((n) => ({ namespace: n, name: n })),
        waves: { size: 2, pauseSeconds: PAUSE_SECONDS },
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ relocation: { id: string } }>().relocation.id;
    const job = res.json<{ job: JobView }>().job;

    // Wave 1 moved, wave 2 pending: the job waits out the pause (on the injected clock).
    await store.waitFor<Relocation, true>(
      'Relocation',
      { ...ref, name: id },
      (r) => {
        const cs = r?.status?.clusters ?? [];
        return cs.filter((c) => c.wave === 1).every((c) => c.state === 'moved') && r?.status?.waves?.done === 1
          ? true
          : undefined;
      },
      { timeoutMs: 90_000 },
    );
    const mid = (await store.get<Relocation>('Relocation', { ...ref, name: id }))!;
    expect(mid.status?.clusters?.map((c) => [c.name, c.wave, c.state])).toEqual([
      ['rf-a', 1, 'moved'],
      ['rf-b', 1, 'moved'],
      ['rf-c', 2, 'pending'],
      ['rf-d', 2, 'pending'],
    ]);
    expect((await bed.system.queue.get(job.id))?.state).toBe('active');

    expect(await flushBedPrefix()).toEqual([]);
    expect(await bed.system.queue.get(job.id)).toBeUndefined();
    // Both links answer from Kubernetes meanwhile.
    const during = await bed.app.inject({ url: `/v1/jobs/${encodeURIComponent(job.id)}` });
    expect(during.statusCode, during.body).toBe(200);
    expect(during.json<{ job: JobView }>().job).toMatchObject({ id: job.id, source: 'kubernetes' });
    expect((await bed.app.inject({ url: `/v1/relocations/${id}` })).statusCode).toBe(200);

    // The resync's pass, once the Operation is past its grace (still inside the pause): the job is queued again.
    bed.clock.advance(bed.config.resync.operationGraceSeconds * 1000 + 1000);
    const repairs = await repair();
    expect(repairs.filter((r) => r.ref.name === job.id).map((r) => r.repair)).toEqual(['operation-requeued']);
    expect((await store.get<Relocation>('Relocation', { ...ref, name: id }))!.status?.clusters?.[2]?.state).toBe(
      'pending',
    );
    // A second pass while the job runs again changes nothing.
    expect((await repair()).filter((r) => r.ref.name === job.id)).toEqual([]);

    // The pause ends; wave 2 moves.
    bed.clock.advance(PAUSE_SECONDS * 1000);
    const done = await bed.system.queue.waitUntilDone(job.id, 120_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');

    const rel = (await store.get<Relocation>('Relocation', { ...ref, name: id }))!;
    expect(rel.status?.phase).toBe('Succeeded');
    expect(rel.status?.waves).toMatchObject({ total: 2, done: 2 });
    expect(rel.status?.clusters?.map((c) => [c.name, c.state, c.hub])).toEqual(NAMES.map((n) => [n, 'moved', WEST]));
    for (const n of NAMES) {
      expect(await store.get('ClusterDeployment', { hub: EAST, namespace: n, name: n }), n).toBeUndefined();
      expect(await store.get('ClusterDeployment', { hub: WEST, namespace: n, name: n }), n).toBeDefined();
      // Moved once: one copy ever made on west.
      expect(copiesOnWest.get(`${n}/${n}`)?.size, n).toBe(1);
    }
    // One ClusterRelocate for the relocation, ever, and gone at the end.
    expect([...relocatesOnEast.keys()]).toEqual([rel.status!.clusterRelocate!.name]);
    expect(relocatesOnEast.get(rel.status!.clusterRelocate!.name)?.size).toBe(1);
    expect(await store.get('ClusterRelocate', { hub: EAST, ...rel.status!.clusterRelocate! })).toBeUndefined();

    const view = await bed.app.inject({ url: `/v1/relocations/${id}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      id,
      phase: 'Succeeded',
      terminal: true,
      job: job.id,
      waves: { total: 2, done: 2 },
      progress: { total: 4, moved: 4 },
    });
    const link = view.json<{ links: { job: string } }>().links.job;
    const jobRes = await bed.app.inject({ url: link });
    expect(jobRes.statusCode, jobRes.body).toBe(200);
    expect(jobRes.json<{ job: JobView }>().job).toMatchObject({ id: job.id, state: 'completed' });

    // One run drove it to the end: the run whose job Redis lost stopped once the job was queued again.
    const metrics = await bed.system.metrics.registry.metrics();
    expect(metrics).toContain('beekeeper_relocations_started_total 1');
    expect(metrics).toContain('beekeeper_relocations_finished_total{phase="Succeeded"} 1');
    expect(metrics).toContain('beekeeper_relocation_clusters_total{state="moved",reason=""} 4');
  }, 240_000);

  it('a relocation that ended before Redis lost its job is not run again: no second ClusterRelocate', async () => {
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/relocations',
      payload: { from: EAST, to: WEST, clusters: [{ namespace: 'rf-e', name: 'rf-e' }] },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ relocation: { id: string } }>().relocation.id;
    const job = res.json<{ job: JobView }>().job;
    expect((await bed.system.queue.waitUntilDone(job.id, 60_000)).state).toBe('completed');

    expect(await flushBedPrefix()).toEqual([]);
    bed.clock.advance(bed.config.resync.operationGraceSeconds * 1000 + 1000);
    expect((await repair()).filter((r) => r.ref.name === job.id)).toEqual([]);
    expect(await bed.system.queue.get(job.id)).toBeUndefined();

    const view = await bed.app.inject({ url: `/v1/relocations/${id}` });
    expect(view.json()).toMatchObject({ id, phase: 'Succeeded', progress: { moved: 1 } });
    const jobRes = await bed.app.inject({ url: view.json<{ links: { job: string } }>().links.job });
    expect(jobRes.json<{ job: JobView }>().job).toMatchObject({ id: job.id, state: 'completed', source: 'kubernetes' });
    const relocate = view.json<{ clusterRelocate?: { name: string } }>().clusterRelocate?.name ?? `relocation-${id}`;
    expect(relocatesOnEast.get(relocate)?.size).toBe(1);
    expect(copiesOnWest.get('rf-e/rf-e')?.size).toBe(1);
    expect(
      await bed.system.store.get('ClusterDeployment', { hub: EAST, namespace: 'rf-e', name: 'rf-e' }),
    ).toBeUndefined();
  }, 120_000);
});
