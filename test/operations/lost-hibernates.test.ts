// Issue 9: 100 accepted hibernate requests, then Redis loses every job before any worker ran one. What the callers
// asked for happened anyway (the request wrote spec.powerState before answering 202), every job id still answers,
// first from Kubernetes, then from the job the Operations repairer queued again, and no cluster was patched twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { JobView } from '../../src/services/ports.js';
import type { System } from '../../src/system.js';
import { adoptCluster, cdWhere, eventsOf, getJob, HUB, operations, startBed, type Bed } from './support.js';

const N = 100;
const ns = 'fleet';
const names = Array.from({ length: N }, (_, i) => `c${String(i).padStart(3, '0')}`);
let bed: Bed;
let worker: System | undefined;
const ids = new Map<string, string>();
const generations = new Map<string, number>();

const cached = (name: string) =>
  bed.api.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name })!;

beforeAll(async () => {
  bed = await startBed();
  for (let i = 0; i < N; i += 20) await Promise.all(names.slice(i, i + 20).map((name) => adoptCluster(bed, ns, name)));
  for (const name of names) generations.set(name, cached(name).metadata.generation ?? 0);
}, 180_000);

afterAll(async () => bed?.close());

describe('100 accepted hibernates, then Redis loses every job', () => {
  it('every request is accepted with 202 while no worker runs', async () => {
    for (let i = 0; i < N; i += 20) {
      await Promise.all(
        names.slice(i, i + 20).map(async (name) => {
          const res = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${ns}/${name}/hibernate` });
          expect(res.statusCode, res.body).toBe(202);
          ids.set(name, res.json<{ job: JobView }>().job.id);
        }),
      );
    }
    expect(new Set(ids.values()).size).toBe(N);
    expect(
      (await bed.api.queue.counts()).find((c) => c.hub === HUB && c.class === 'interactive' && c.state === 'waiting')
        ?.count,
    ).toBe(N);
  });

  it('after FLUSHALL, all 100 clusters end Hibernating: Hive acts on the spec.powerState each request wrote', async () => {
    await bed.flushRedis();
    expect(await bed.api.queue.get(ids.get(names[0]!)!)).toBeUndefined();
    await Promise.all(names.map((name) => cdWhere(bed, ns, name, (cd) => cd?.status?.powerState === 'Hibernating')));
  });

  it('every job id still answers 200, from Kubernetes: the Operation and what the cluster shows now', async () => {
    for (const name of names) {
      const { status, job } = await getJob(bed, ids.get(name)!);
      expect({ name, status }).toEqual({ name, status: 200 });
      expect(job).toMatchObject({
        id: ids.get(name),
        type: 'cluster.hibernate',
        source: 'kubernetes',
        target: { kind: 'ClusterDeployment', hub: HUB, namespace: ns, name },
      });
      expect(job!.steps.at(-1)).toMatchObject({
        step: 'Hibernating',
        message: expect.stringContaining('status.powerState Hibernating'),
      });
    }
    // kubectl get operations shows what was asked, and that it is not finished yet.
    const ops = await operations(bed);
    expect(ops.filter((o) => o.spec.type === 'cluster.hibernate' && o.spec.target.namespace === ns)).toHaveLength(N);
  });

  it("the scheduler's resync queues each lost job again under its id; the jobs answer from Redis and complete", async () => {
    worker = await bed.start(['worker', 'scheduler']);
    // Operations younger than the grace are their requests' business; these are older now.
    bed.clock.advance(60_000);
    const run = await worker.resync!.runOnce(`manual-${Date.now()}`);
    expect(run?.repairs['operation-requeued']).toBe(N);

    for (const name of names) {
      const { job } = await getJob(bed, ids.get(name)!, 60);
      expect({ name, state: job?.state, source: job?.source }).toEqual({ name, state: 'completed', source: undefined });
      expect(job?.result).toEqual({ powerState: 'Hibernating', changed: true });
    }
    // A second pass finds nothing left to queue again.
    const again = await worker.resync!.runOnce(`manual-again-${Date.now()}`);
    expect(again?.repairs['operation-requeued']).toBeUndefined();
  });

  it('no cluster was patched twice: one spec change each, one HibernateRequested Event each, every Operation Succeeded', async () => {
    for (const name of names) {
      expect({ name, generation: cached(name).metadata.generation }).toEqual({
        name,
        generation: generations.get(name)! + 1,
      });
      expect({ name, spec: cached(name).spec.powerState }).toEqual({ name, spec: 'Hibernating' });
      const requested = (await eventsOf(bed, ns, name)).filter((e) => e.reason === 'HibernateRequested');
      expect({ name, requested: requested.length }).toEqual({ name, requested: 1 });
    }
    const ops = (await operations(bed)).filter((o) => o.spec.target.namespace === ns);
    expect(ops.map((o) => o.status?.phase)).toEqual(Array(N).fill('Succeeded'));
  });
});
