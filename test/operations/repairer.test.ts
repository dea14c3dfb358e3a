// The Operations repairer, pass by pass, with a worker running: an end the worker could not record (the hub refused
// the write) is recorded from Redis; an Operation whose request stopped before its write gets a job that makes the
// change itself; requests still in progress are left alone; finished Operations go once the job history would have
// let their jobs go, failed ones later than completed ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairOperations } from '../../src/services/operations/repair-operations.js';
import type { Operation } from '../../src/services/operations/operation.js';
import type { JobView } from '../../src/services/ports.js';
import type { System } from '../../src/system.js';
import { adoptCluster, cdWhere, getJob, HUB, log, startBed, STATE_NS, type Bed } from './support.js';

let bed: Bed;
let worker: System;
const jobs = { keepCompletedSeconds: 3600, keepFailedSeconds: 7200 };
const repair = () =>
  repairOperations({
    store: worker.store,
    queue: worker.queue,
    clock: bed.clock,
    log,
    stateHub: HUB,
    stateNamespace: STATE_NS,
    jobs,
  });
const op = (name: string) => bed.api.store.get<Operation>('Operation', { hub: HUB, namespace: STATE_NS, name });
const faults = async (spec: object) => {
  const hub = bed.sim.hubs[0]!;
  const res = await fetch(`${hub.url}/_sim/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${hub.token}` },
    body: JSON.stringify(spec),
  });
  expect(res.status).toBe(200);
};

beforeAll(async () => {
  bed = await startBed();
  await Promise.all(['a', 'b', 'c'].map((name) => adoptCluster(bed, 'fleet', name)));
  worker = await bed.start(['worker']);
}, 120_000);

afterAll(async () => bed?.close());

describe('repairOperations', () => {
  let finished: string;

  it('records on the Operation the end of a job the worker could not record there', async () => {
    await faults({ errors: [{ verb: 'patch', resource: 'operations', rate: 1, code: 503 }] });
    let job: JobView;
    try {
      const res = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/fleet/a/hibernate?wait=60` });
      expect(res.statusCode, res.body).toBe(200);
      job = res.json<{ job: JobView }>().job;
    } finally {
      await faults({});
    }
    expect(job.state).toBe('completed');
    expect((await op(job.id))?.status?.phase).toBeUndefined();
    finished = job.id;

    bed.clock.advance(31_000);
    expect(await repair()).toEqual([
      {
        repair: 'operation-end-recorded',
        ref: { kind: 'Operation', hub: HUB, namespace: STATE_NS, name: job.id },
        detail: expect.stringContaining('completed'),
      },
    ]);
    expect((await op(job.id))?.status).toMatchObject({
      phase: 'Succeeded',
      result: { powerState: 'Hibernating', changed: true },
      finishedAt: job.finishedAt,
    });
  });

  it('a finished job whose record Redis lost streams its Operation once and ends', async () => {
    await bed.flushRedis();
    const res = await bed.app.inject({ url: `/v1/jobs/${finished}/events` });
    expect(res.statusCode).toBe(200);
    const events = res.body.split('\n\n').filter((b) => b.startsWith('event: job'));
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.split('\ndata: ')[1]!)).toMatchObject({
      id: finished,
      state: 'completed',
      source: 'kubernetes',
      result: { powerState: 'Hibernating', changed: true },
    });
  });

  it('queues the job of an Operation whose request stopped before its write, and that job makes the change itself', async () => {
    // What an API process killed between creating the Operation and patching the cluster leaves behind.
    const name = `${HUB}.0b8e3c1e-crashed-request`;
    await bed.api.store.create('Operation', HUB, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'Operation',
      metadata: { name, namespace: STATE_NS },
      spec: {
        type: 'cluster.hibernate',
        target: { kind: 'ClusterDeployment', hub: HUB, namespace: 'fleet', name: 'b' },
        payload: {
          hub: HUB,
          namespace: 'fleet',
          name: 'b',
          target: 'Hibernating',
          before: { requested: 'Running', observed: 'Running' },
        },
        requestedAt: new Date(bed.clock.now()).toISOString(),
      },
    });
    await worker.store.waitFor('Operation', { hub: HUB, namespace: STATE_NS, name }, (o) => o, { timeoutMs: 10_000 });
    // Its request may still be writing: left alone within the grace.
    expect(await repair()).toEqual([]);
    bed.clock.advance(31_000);
    expect((await repair()).map((r) => [r.repair, r.ref.name])).toEqual([['operation-requeued', name]]);
    const { job } = await getJob(bed, name, 60);
    expect(job).toMatchObject({ state: 'completed', result: { powerState: 'Hibernating', changed: true } });
    expect(job!.steps[0]?.step).toBe('HibernateRequested');
    const cd = await cdWhere(bed, 'fleet', 'b', (o) => o?.status?.powerState === 'Hibernating');
    expect(cd?.metadata.annotations?.['beekeeper.io/power-operation']).toBe(name);
  });

  it('deletes finished Operations after the job history window: completed ones first, failed ones later', async () => {
    // A platform Hive cannot hibernate: the job fails with Hive's reason.
    await bed.api.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: 'fleet', name: 'c' },
      { metadata: { annotations: { 'hive.openshift.io/powerstate-pause': 'true' } } },
    );
    await cdWhere(
      bed,
      'fleet',
      'c',
      (o) => o?.status?.conditions?.some((c) => c.reason === 'PowerStatePaused') === true,
    );
    const res = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/fleet/c/hibernate?wait=60` });
    const failed = res.json<{ job: JobView }>().job;
    expect(failed).toMatchObject({ state: 'failed', error: { reason: 'PowerStatePaused' } });
    await worker.store.waitFor<Operation, true>(
      'Operation',
      { hub: HUB, namespace: STATE_NS, name: failed.id },
      (o) => (o?.status?.phase === 'Failed' ? true : undefined),
      { timeoutMs: 10_000 },
    );

    bed.clock.advance(jobs.keepCompletedSeconds * 1000);
    const first = await repair();
    expect(first.map((r) => r.repair)).toEqual(['operation-deleted', 'operation-deleted']);
    expect(first.map((r) => r.ref.name).sort()).toEqual([finished, `${HUB}.0b8e3c1e-crashed-request`].sort());
    expect(await op(failed.id)).toBeDefined();

    bed.clock.advance((jobs.keepFailedSeconds - jobs.keepCompletedSeconds) * 1000);
    expect((await repair()).map((r) => [r.repair, r.ref.name])).toEqual([['operation-deleted', failed.id]]);
    expect(await op(failed.id)).toBeUndefined();
  });
});
