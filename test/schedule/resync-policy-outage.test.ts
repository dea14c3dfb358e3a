// An expiry policy's default lifetime is imposed by a job the expiry timers enqueue when a cluster appears. A
// cluster created while Redis was down got none, and kept no expiry until something else changed it; the resync
// run when Redis answers again finds it breaking the policy and enqueues the enforcement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { adoptCluster, events, HUB, startBed, type Bed } from './support.js';

const NS = 'teams';
let redis: PrivateRedis;
let bed: Bed;

beforeAll(async () => {
  redis = await startPrivateRedis();
  bed = await startBed(Date.parse('2026-11-23T09:00:00Z'), {
    env: { REDIS_URL: redis.url, BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400' },
    roles: ['api', 'worker', 'scheduler'],
  });
  const policy = await bed.app.inject({
    method: 'POST',
    url: '/v1/expiry-policies',
    payload: { name: 'eight-hours', selector: { namespaces: [NS] }, defaultLifetime: '8h', maxLifetime: '10h' },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  await bed.system.store.waitFor('ExpiryPolicy', { hub: HUB, namespace: 'beekeeper', name: 'eight-hours' }, (o) => o, {
    timeoutMs: 10_000,
  });
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await redis?.close();
});

describe('a cluster created while Redis is down', () => {
  it('gets its policy default from the resync once Redis is back', async () => {
    await redis.stop();
    await adoptCluster(bed, NS, 'fresh');
    const recovered = new Promise<unknown>((resolve) =>
      bed.system.resync!.onRun((r) => r.trigger === 'recovery' && resolve(r)),
    );
    await redis.start();
    expect(await recovered).toMatchObject({ repairs: { 'expiry-policy': 1 } });
    const cd = await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'fresh' },
      (o) => (o?.metadata.annotations?.['hive.openshift.io/delete-after'] ? o : undefined),
      { timeoutMs: 20_000 },
    );
    expect(cd.metadata.annotations?.['beekeeper.io/expiry-history']).toContain('eight-hours');
    expect((await events(bed, NS, 'fresh')).filter((e) => e.reason === 'ResyncRepaired')).toHaveLength(1);
  }, 120_000);
});
