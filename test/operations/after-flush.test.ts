// Issue 9: what a Redis flush must not undo. An Idempotency-Key retry after the flush gets the first answer (the
// key is recorded on what the request created), not a second claim or a second job; a power change in flight still
// refuses the opposite one (decided from the Operations, not from Redis). And Redis unavailable: before a request
// nothing is written (503), after its write the answer is still 202 and the job is queued by the repairer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { repairOperations } from '../../src/services/operations/repair-operations.js';
import type { JobView } from '../../src/services/ports.js';
import { adoptCluster, cdWhere, HUB, log, operations, startBed, STATE_NS, type Bed } from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
let bed: Bed;

const post = (url: string, payload: unknown, key?: string) =>
  bed.app.inject({ method: 'POST', url, payload: payload as object, headers: key ? { 'idempotency-key': key } : {} });

beforeAll(async () => {
  bed = await startBed();
  const { store } = bed.api;
  await store.create('Namespace', HUB, { metadata: { name: 'ci' } });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace: 'ci' },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace: 'ci' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  } as never);
  await store.create('ClusterImageSet', HUB, {
    metadata: { name: 'openshift-v4.16.3' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  });
  await store.waitFor('ClusterImageSet', { hub: HUB, name: 'openshift-v4.16.3' }, (o) => o, { timeoutMs: 10_000 });
  // No clusters in the pool: the claims wait, which is all these tests need.
  const pool = await post('/v1/pools', {
    hub: HUB,
    namespace: 'ci',
    name: 'builds',
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'ci.example.com',
    imageSetName: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    size: 0,
  });
  expect(pool.statusCode, pool.body).toBe(201);
  await store.waitFor('ClusterPool', { hub: HUB, namespace: 'ci', name: 'builds' }, (o) => o, { timeoutMs: 10_000 });
  await Promise.all(['sleepy', 'busy', 'quiet', 'idle', 'still'].map((name) => adoptCluster(bed, 'fleet', name)));
}, 120_000);

afterAll(async () => bed?.close());

describe('an Idempotency-Key retry after Redis was flushed', () => {
  it('a claim: the same key and body answer the first claim (201, its Location), and no second claim is made', async () => {
    const body = { pool: `${HUB}/ci/builds`, lifetime: '2h' };
    const first = await post('/v1/claims', body, 'claim-once-1');
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json<{ id: string }>().id;
    await bed.api.store.waitFor(
      'ClusterClaim',
      { hub: HUB, namespace: 'ci', name: first.json<{ name: string }>().name },
      (o) => o,
      { timeoutMs: 10_000 },
    );

    await bed.flushRedis();
    const retry = await post('/v1/claims', body, 'claim-once-1');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<{ id: string }>().id).toBe(id);
    expect((await bed.api.store.list('ClusterClaim', HUB, { namespace: 'ci' })).map((c) => c.metadata.name)).toEqual([
      first.json<{ name: string }>().name,
    ]);

    // Back in Redis: the next retry takes the fast path. The key with another body is still a client bug.
    expect((await post('/v1/claims', body, 'claim-once-1')).json<{ id: string }>().id).toBe(id);
    await bed.flushRedis();
    const other = await post('/v1/claims', { ...body, lifetime: '3h' }, 'claim-once-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().errors).toEqual([
      { field: 'Idempotency-Key', reason: 'reused with a different route or body' },
    ]);
    expect(await bed.api.store.list('ClusterClaim', HUB, { namespace: 'ci' })).toHaveLength(1);
  });

  it('a schedule: the same key and body answer the first one instead of 409 "already exists"', async () => {
    const body = {
      name: 'office-hours',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon'], start: '08:00', end: '18:00' }],
    };
    const first = await post('/v1/schedules', body, 'schedule-once');
    expect(first.statusCode, first.body).toBe(201);
    await bed.api.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'office-hours' },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    await bed.flushRedis();
    const retry = await post('/v1/schedules', body, 'schedule-once');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toMatchObject({ name: 'office-hours', spec: { timeZone: 'Europe/Berlin' } });
    // Without the key it is the conflict it always was.
    expect((await post('/v1/schedules', body)).statusCode).toBe(409);
  });

  it('a 202: the same key answers the first job (202, its Location), and no second Operation or job is made', async () => {
    const url = `/v1/clusters/${HUB}/fleet/sleepy/hibernate`;
    const first = await post(url, undefined, 'hibernate-once');
    expect(first.statusCode, first.body).toBe(202);
    const job = first.json<{ job: JobView }>().job;
    await bed.flushRedis();
    const retry = await post(url, undefined, 'hibernate-once');
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.json<{ job: JobView }>().job).toMatchObject({
      id: job.id,
      type: 'cluster.hibernate',
      source: 'kubernetes',
    });
    expect((await operations(bed)).filter((o) => o.spec.target.name === 'sleepy').map((o) => o.metadata.name)).toEqual([
      job.id,
    ]);
    expect(await bed.api.queue.list({ type: 'cluster.hibernate' })).toEqual([]);
  });
});

describe('a power change in flight, after Redis was flushed', () => {
  it('still refuses the opposite change with 409 naming its job, and the same change answers that job', async () => {
    const url = (action: string) => `/v1/clusters/${HUB}/fleet/busy/${action}`;
    // No worker runs, so the hibernate stays in flight.
    const hibernate = await post(url('hibernate'), undefined);
    expect(hibernate.statusCode, hibernate.body).toBe(202);
    const id = hibernate.json<{ job: JobView }>().job.id;
    await bed.flushRedis();

    const resume = await post(url('resume'), undefined);
    expect(resume.statusCode, resume.body).toBe(409);
    expect(resume.json().detail).toContain(id);
    const again = await post(url('hibernate'), undefined);
    expect(again.statusCode).toBe(202);
    expect(again.json<{ job: JobView }>().job.id).toBe(id);
    expect((await operations(bed)).filter((o) => o.spec.target.name === 'busy')).toHaveLength(1);
  });
});

describe('Redis unavailable around a 202', () => {
  it('Redis refusing the job after the request made the change (full, noeviction): still 202, and the repairer queues the job', async () => {
    await bed.redis((r) =>
      r.config('SET', 'maxmemory-policy', 'noeviction').then(() => r.config('SET', 'maxmemory', '1')),
    );
    let res;
    try {
      res = await post(`/v1/clusters/${HUB}/fleet/idle/hibernate`, undefined);
    } finally {
      await bed.redis((r) => r.config('SET', 'maxmemory', '0'));
    }
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json<{ job: JobView }>().job;
    expect(job).toMatchObject({ type: 'cluster.hibernate', state: 'waiting', source: 'kubernetes' });
    expect(res.headers.location).toBe(`/v1/jobs/${encodeURIComponent(job.id)}`);
    expect(await bed.api.queue.get(job.id)).toBeUndefined();
    await cdWhere(bed, 'fleet', 'idle', (cd) => cd?.status?.powerState === 'Hibernating');

    const worker = await bed.start(['worker']);
    bed.clock.advance(31_000);
    const repairs = await repairOperations({
      store: worker.store,
      queue: worker.queue,
      clock: bed.clock,
      log,
      stateHub: HUB,
      stateNamespace: STATE_NS,
      jobs: bed.config.jobs,
    });
    expect(repairs.filter((r) => r.ref.name === job.id).map((r) => r.repair)).toEqual(['operation-requeued']);
    // Waited for in the worker's process: its event reader closes with it, before the next test restarts Redis.
    await worker.queue.waitUntilDone(job.id, 30_000);
    const done = await bed.app.inject({ url: `/v1/jobs/${job.id}` });
    expect(done.json<{ job: JobView }>().job).toMatchObject({
      state: 'completed',
      result: { powerState: 'Hibernating', changed: true },
    });
    await worker.close();
  });

  it('Redis down before the request: 503 with Retry-After and nothing written; a job accepted earlier still answers by id', async () => {
    const accepted = await post(`/v1/clusters/${HUB}/fleet/quiet/hibernate`, undefined);
    expect(accepted.statusCode, accepted.body).toBe(202);
    const id = accepted.json<{ job: JobView }>().job.id;
    const before = (await operations(bed)).length;
    await bed.stopRedis();
    try {
      const refused = await post(`/v1/clusters/${HUB}/fleet/still/hibernate`, undefined);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await operations(bed)).length).toBe(before);
      expect(
        bed.api.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: 'fleet', name: 'still' })
          ?.spec.powerState,
      ).toBeUndefined();
      const seen = await bed.app.inject({ url: `/v1/jobs/${id}` });
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.json<{ job: JobView }>().job).toMatchObject({ id, source: 'kubernetes' });
    } finally {
      await bed.startRedis();
    }
  });
});
