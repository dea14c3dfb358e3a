import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { replyWithJob } from '../../src/http/reply-job.js';
import type { WorkerPool } from '../../src/jobs/worker.js';
import { loadConfig } from '../../src/config.js';
import { buildTestServer, createHarness, gate, type Harness, testJob } from '../platform/support.js';
import { haveRedisBinaries, startCluster, type Topology } from './support.js';

// A feature-style route: enqueue and answer with the job, so Idempotency-Key records go through the cluster too.
// Like every route that takes a body, it declares it (a route without a body schema refuses fields).
const echoRoutes =
  (h: Harness): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/echo-jobs',
      { schema: { body: Type.Object({ n: Type.Integer() }, { additionalProperties: false }) } },
      async (req, reply) =>
        replyWithJob(reply, h.queue, await h.queue.enqueue(testJob('test.slow', req.body as Record<string, unknown>))),
    );
  };

describe.skipIf(!haveRedisBinaries)('jobs through a three-master Redis Cluster', () => {
  let topology: Topology;
  let h: Harness;
  let app: FastifyInstance;
  let pool: WorkerPool;
  let release = gate();

  beforeAll(async () => {
    topology = await startCluster();
    const config = loadConfig({
      BEEKEEPER_REDIS_CLUSTER_NODES: topology.addresses,
      BEEKEEPER_REDIS_PREFIX: `{bk-cluster-${randomUUID().slice(0, 8)}}`,
    });
    h = await createHarness({ config });
    // One pool with every handler: a second pool on the same queue would take jobs it has no handler for.
    pool = await h.startWorkers({
      'test.echo': async (p, ctx) => {
        await ctx.step('started', String(p.text));
        await release.promise;
        await ctx.step('finished');
        return { echo: p.text };
      },
      'test.slow': async () => release.promise.then(() => 'slow done'),
      // Runs until shutdown aborts it.
      'test.hold': async (_p, ctx) => {
        await ctx.step('holding');
        await new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    });
    app = await buildTestServer(h, [echoRoutes(h)]);
  }, 20_000);
  afterAll(async () => {
    await app?.close();
    await h?.close();
    await topology?.close();
  });

  it('runs a job to completion, reporting its steps as it goes', async () => {
    release = gate();
    const job = await h.queue.enqueue(testJob('test.echo', { text: 'via cluster' }), {
      target: { kind: 'ClusterDeployment', hub: 'local', namespace: 'ns', name: 'c1' },
    });
    // Watching needs the event stream (a blocking XREAD on the cluster node holding the prefix's slot).
    const seen: string[] = [];
    const started = new Promise<void>((resolve) => {
      const stop = h.queue.watch(job.id, (v) => {
        seen.push(v.state);
        if (v.steps.some((s) => s.step === 'started')) {
          stop();
          resolve();
        }
      });
    });
    await started;
    release.open();
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect(done).toMatchObject({ state: 'completed', result: { echo: 'via cluster' }, target: { name: 'c1' } });
    expect(done.steps.map((s) => s.step)).toEqual(['started', 'finished']);
    expect(seen).toContain('active');
  });

  it('collapses a duplicate onto the pending job (dedup keys share the prefix slot)', async () => {
    release = gate();
    const first = await h.queue.enqueue(testJob('test.slow', { n: 1 }), { dedupId: 'hibernate-local-ns-c2' });
    const second = await h.queue.enqueue(testJob('test.slow', { n: 2 }), { dedupId: 'hibernate-local-ns-c2' });
    expect(second.id).toBe(first.id);
    release.open();
    expect(await h.queue.waitUntilDone(first.id, 15_000)).toMatchObject({ state: 'completed', result: 'slow done' });
  });

  it('serves the HTTP edge: readiness, Idempotency-Key replays and the dashboard', async () => {
    release.open();
    expect((await app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', redis: 'ok' });
    const post = () =>
      app.inject({
        method: 'POST',
        url: '/v1/echo-jobs',
        headers: { 'idempotency-key': 'cluster-1' },
        payload: { n: 1 },
      });
    const first = await post();
    const again = await post();
    expect(first.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    const board = await app.inject({ url: '/admin/queues/api/queues' });
    expect(board.statusCode).toBe(200);
    expect(board.json().queues.map((q: { name: string }) => q.name)).toContain('ops-local');
  });

  // Last: it stops the workers.
  it('hands an active job back to the queue at shutdown, without spending an attempt', async () => {
    const job = await h.queue.enqueue(testJob('test.hold', {}));
    await new Promise<void>((resolve) => {
      const stop = h.queue.watch(job.id, (v) => {
        if (v.steps.length > 0) {
          stop();
          resolve();
        }
      });
    });
    await pool.close();
    expect(await h.queue.get(job.id)).toMatchObject({ state: 'waiting', attempts: 0 });
  });
});
