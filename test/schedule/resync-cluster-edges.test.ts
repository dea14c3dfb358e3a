// Cluster-specific edges (a keep-awake lapsing, the install grace period ending) are applied by a reconcile job
// the timers enqueue once. When Redis loses it, the resync applies the lapse again under its deterministic id; once
// applied, the lapse is recorded on the cluster (beekeeper.io/last-cluster-edge), so neither the resync nor a
// scheduler restarting on an empty Redis replays it over a change someone made since.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIds } from '../../src/services/job-ids.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { adoptCluster, cd, events, HUB, startBed, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'late';
const LAPSE = '2026-11-23T19:30:00Z';
const lapseJobId = `${HUB}.${jobIds.lapse({ hub: HUB, namespace: NS, name: 'deploy' }, at(LAPSE))}`;
let redis: PrivateRedis;
let bed: Bed;

beforeAll(async () => {
  redis = await startPrivateRedis();
  // No worker at first: the lapse job waits in Redis until the flush takes it.
  bed = await startBed(at('2026-11-22T10:00:00Z'), {
    env: { REDIS_URL: redis.url, BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400' },
    roles: ['api', 'scheduler'],
  });
  await adoptCluster(bed, NS, 'deploy');
  bed.clock.set(at('2026-11-23T18:30:00Z'));
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'office',
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      catchUpDeadline: '2h',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const o = await bed.app.inject({
    method: 'POST',
    url: `/v1/clusters/${HUB}/${NS}/deploy/overrides`,
    payload: { type: 'keepAwake', until: LAPSE, by: 'dee', reason: 'late deploy' },
  });
  expect(o.statusCode, o.body).toBe(201);
  await bed.system.store.waitFor(
    'ClusterOverride',
    { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.deploy.keep-awake` },
    (x) => x,
    { timeoutMs: 10_000 },
  );
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await redis?.close();
});

describe('a keep-awake lapse whose job Redis lost', () => {
  it('is applied by the resync, once, and recorded on the cluster', async () => {
    const enqueued = new Promise<void>((resolve) => {
      const off = bed.system.queue.watch(lapseJobId, () => (off(), resolve()));
    });
    bed.clock.set(at(LAPSE) + 500);
    await enqueued;
    await redis.flushAll();
    expect(await bed.system.queue.get(lapseJobId)).toBeUndefined();

    await bed.startInstance(['worker']);
    expect((await bed.system.resync!.runOnce())?.repairs).toEqual({ 'cluster-edge': 1 });
    await waitPower(bed, NS, 'deploy', 'Hibernating');
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'deploy' },
      (o) =>
        o?.metadata.annotations?.['beekeeper.io/last-cluster-edge'] === new Date(at(LAPSE)).toISOString()
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    expect((await events(bed, NS, 'deploy')).filter((e) => e.reason === 'ResyncRepaired')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /keep-awake override .* lapsed at 2026-11-23T19:30:00.000Z, not yet applied and its job was gone/,
        ),
      }),
    ]);
  });

  it('is not replayed over a change made since, by the resync or by a scheduler starting on an empty Redis', async () => {
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'deploy' },
      { spec: { powerState: 'Running' } },
    );
    await waitPower(bed, NS, 'deploy', 'Running');
    bed.clock.set(at(LAPSE) + 30 * 60_000); // still within the 2h catchUpDeadline
    await redis.flushAll();
    const restarted = await bed.startInstance(['scheduler']);
    expect((await restarted.resync!.runOnce('after-restart'))?.repairs).toEqual({});
    expect(await bed.system.queue.get(lapseJobId)).toBeUndefined();
    expect(cd(bed, NS, 'deploy').spec?.powerState).toBe('Running');
  });
});
