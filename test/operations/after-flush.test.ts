// Issue 9: what a Redis flush must not undo: a power change in flight still refuses the opposite one (decided from
// the Operations, not from Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { adoptCluster, HUB, operations, startBed, type Bed } from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
let bed: Bed;

const post = (url: string, payload: unknown, key?: string) =>
  bed.app.inject({ method: 'POST', url, payload: payload as object, headers: key ? { 'idempotency-key': key } : {} });

beforeAll(async () => {
  bed = await startBed();
  const { store } = bed.api;
  await store.create('Namespace', HUB, { metadata: { name: 'ci' } });
  await store.create('Secret', HUB, { metadata: { name: 'aws-creds', namespace: 'ci' }, data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') } });
  await store.create('Secret', HUB, { metadata: { name: 'pull-secret', namespace: 'ci' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } } as never);
  await store.create('ClusterImageSet', HUB, { metadata: { name: 'openshift-v4.16.3' }, spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' } });
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
  await Promise.all(['sleepy', 'busy'].map((name) => adoptCluster(bed, 'fleet', name)));
}, 120_000);

afterAll(async () => bed?.close());

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
