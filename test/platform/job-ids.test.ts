// Every job id the API hands out can be fetched: the longest come from a 63-character hub (a DNS label) with a
// fixed id of 200 characters, e.g. a sweep's per-cluster child or a deterministic id for a long namespace and name.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { jobIds } from '../../src/services/job-ids.js';
import { buildTestServer, createHarness, sseEvents, type Harness, testJob } from './support.js';

const hub = `h${'0'.repeat(61)}b`;
const namespace = `n${'s'.repeat(61)}1`;
const name = `c${'.x'.repeat(125)}1`; // a DNS subdomain of 253

describe('job ids', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness({ hubs: [hub] });
    app = await buildTestServer(h);
    await h.startWorkers({ 'test.long': async () => 'done' });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('GET /v1/jobs/{id} and its event stream answer for the longest ids the API hands out', async () => {
    const sweep = await h.queue.enqueue(testJob('test.long', {}), {
      hub,
      jobId: jobIds.sweep(namespace, 1_767_225_600_000),
    });
    const parentId = sweep.id;
    const ids = [
      (
        await h.queue.enqueue(testJob('test.long', {}), {
          hub,
          jobId: jobIds.warn({ kind: 'ClusterClaim', hub, namespace, name, expiresAtMs: 1_767_225_600_000 }, '24h'),
        })
      ).id,
      (
        await h.queue.enqueue(testJob('test.long', {}), {
          hub,
          jobId: jobIds.child(hub, parentId, jobIds.sweepChild({ hub, namespace, name })).slice(hub.length + 1),
        })
      ).id,
    ];
    // The hub, a dot, and the 200 characters BullMQ ids are kept to.
    expect(Math.max(...ids.map((id) => id.length))).toBe(63 + 1 + 200);
    for (const id of [parentId, ...ids]) {
      const res = await app.inject({ url: `/v1/jobs/${id}?wait=10` });
      expect({ id, status: res.statusCode }).toEqual({ id, status: 200 });
      expect(res.json<{ job: JobView }>().job).toMatchObject({ id, state: 'completed' });
      const events = await app.inject({ url: `/v1/jobs/${id}/events` });
      expect({ id, status: events.statusCode }).toEqual({ id, status: 200 });
      expect(sseEvents<JobView>(events.body).at(-1)).toMatchObject({ id, state: 'completed' });
    }
  });

  it('an id longer than any the API hands out is a 414 problem, before the queue is asked', async () => {
    const res = await app.inject({ url: `/v1/jobs/${hub}.${'x'.repeat(201)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ status: 414, code: 'BadRequest' });
  });
});
