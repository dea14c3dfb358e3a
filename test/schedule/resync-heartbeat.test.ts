// A claim whose holder stopped heartbeating is released by a job the heartbeat reaper enqueues once, when the
// deadline passes. If Redis loses that job, the reaper never looks again; the resync does: it finds the deadline
// passed (from the Lease in Kubernetes), the claim still held and no release job, and enqueues it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { heartbeatExpiredJob } from '../../src/services/claims/heartbeat-expired.js';
import { heartbeatDeadline } from '../../src/services/claims/heartbeat-lease.js';
import { jobIds } from '../../src/services/job-ids.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { events, HUB, startBed, type Bed } from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const REF = { hub: HUB, namespace: 'pools', name: 'ci-run' };
let redis: PrivateRedis;
let bed: Bed;

beforeAll(async () => {
  redis = await startPrivateRedis();
  // No worker: the release job the reaper enqueues waits in Redis until the flush takes it.
  bed = await startBed(Date.parse('2026-11-23T09:00:00Z'), {
    env: { REDIS_URL: redis.url, BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400' },
    roles: ['api', 'scheduler'],
  });
  const { store } = bed.system;
  await store.create('Namespace', HUB, { metadata: { name: 'pools' } });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace: 'pools' },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace: 'pools' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  });
  await store.create('ClusterImageSet', HUB, {
    metadata: { name: 'openshift-v4.17.9' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
  });
  await store.waitFor('ClusterImageSet', { hub: HUB, name: 'openshift-v4.17.9' }, (o) => o, { timeoutMs: 10_000 });
  const pool = await bed.app.inject({
    method: 'POST',
    url: '/v1/pools',
    payload: {
      hub: HUB,
      namespace: 'pools',
      name: 'ci',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.17.9',
      pullSecretRef: 'pull-secret',
      size: 1,
      runningCount: 1,
    },
  });
  expect(pool.statusCode, pool.body).toBe(201);
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await redis?.close();
});

describe('an expired heartbeat whose release job Redis lost', () => {
  it('is released by the resync', async () => {
    const { store, queue } = bed.system;
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/claims',
      payload: { pool: 'ci', name: REF.name, heartbeatTimeout: '5m' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const claim = await store.waitFor<ClusterClaim, ClusterClaim>(
      'ClusterClaim',
      REF,
      (o) => (o?.status?.conditions?.some((c) => c.type === 'Pending' && c.status === 'False') ? o : undefined),
      { timeoutMs: 60_000 },
    );
    const deadline = (await heartbeatDeadline(store, REF, claim))!;
    const job = heartbeatExpiredJob(REF, deadline, '');
    const id = jobIds.on(job.hub, job.jobId);
    const enqueued = new Promise<void>((resolve) => {
      const off = queue.watch(id, () => (off(), resolve()));
    });
    bed.clock.set(deadline + 1000);
    await enqueued; // the reaper noticed, once
    await redis.flushAll();
    expect(await queue.get(id)).toBeUndefined();

    await bed.startInstance(['worker']);
    const run = await bed.system.resync!.runOnce();
    expect(run?.repairs).toEqual({ heartbeat: 1 });
    await store.waitFor('ClusterClaim', REF, (o) => (!o || o.metadata.deletionTimestamp ? true : undefined), {
      timeoutMs: 30_000,
    });
    expect((await events(bed, 'pools', REF.name)).filter((e) => e.reason === 'ResyncRepaired')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /heartbeat deadline .* passed and the claim is still held; its release job was gone/,
        ),
      }),
    ]);
    expect(await bed.system.metrics.registry.getSingleMetricAsString('beekeeper_resync_repairs_total')).toContain(
      'beekeeper_resync_repairs_total{repair="heartbeat"} 1',
    );
  }, 120_000);
});
