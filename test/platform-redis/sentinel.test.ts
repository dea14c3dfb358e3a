import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { closeRedis, createRedis, isRedisDown, waitReady } from '../../src/redis/connect.js';
import { createHarness, type Harness, testJob } from '../platform/support.js';
import { haveRedisBinaries, startSentinel, type SentinelTopology } from './support.js';

describe.skipIf(!haveRedisBinaries)('jobs through Redis Sentinel', () => {
  let topology: SentinelTopology;
  let h: Harness;

  beforeAll(async () => {
    topology = await startSentinel('bk-master');
    const config = loadConfig({
      BEEKEEPER_REDIS_SENTINELS: topology.addresses,
      BEEKEEPER_REDIS_SENTINEL_NAME: 'bk-master',
      BEEKEEPER_REDIS_PREFIX: `{bk-sentinel-${randomUUID().slice(0, 8)}}`,
    });
    h = await createHarness({ config });
    await h.startWorkers({
      'test.echo': async (p, ctx) => {
        await ctx.step('echoing', String(p.text));
        return { echo: p.text };
      },
    });
  }, 20_000);
  afterAll(async () => {
    await h?.close();
    await topology?.close();
  });

  it('runs a job to completion on the master the sentinel names, with its steps and result', async () => {
    const job = await h.queue.enqueue(testJob('test.echo', { text: 'via sentinel' }), {
      target: { kind: 'ClusterDeployment', hub: 'local', namespace: 'ns', name: 'c1' },
    });
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect(done).toMatchObject({ state: 'completed', result: { echo: 'via sentinel' }, target: { name: 'c1' } });
    expect(done.steps.map((s) => s.step)).toEqual(['echoing']);
    // The queue really lives on the master the sentinel resolved, under the configured prefix.
    expect(await h.producer.keys(`${h.config.redis.prefix}:ops-local:*`)).not.toHaveLength(0);
  });

  it('counts READONLY (a write reaching a replica, as during a failover) as Redis being unavailable: 503, not 500', async () => {
    const pinned = createRedis(
      { url: `redis://127.0.0.1:${topology.replicaPort}`, prefix: h.config.redis.prefix },
      'producer',
    );
    try {
      await waitReady(pinned);
      const refused = await pinned.set(`${h.config.redis.prefix}:probe`, '1').catch((err: Error) => err);
      expect(String(refused)).toMatch(/^ReplyError: READONLY/);
      expect(isRedisDown(refused)).toBe(true);
    } finally {
      await closeRedis(pinned);
    }
  });

  // Last: it promotes the replica.
  it('follows a failover: producer and workers move to the promoted replica and keep the job history', async () => {
    const before = await h.queue.enqueue(testJob('test.echo', { text: 'before' }));
    await h.queue.waitUntilDone(before.id, 15_000);
    const oldMaster = await topology.masterPort();
    const newMaster = await topology.failover();
    expect(newMaster).toBe(topology.replicaPort);
    expect(newMaster).not.toBe(oldMaster);

    // The sentinel tells the clients (+switch-master) and they reconnect there; meanwhile the producer fails fast
    // (503s to API callers).
    const onNewMaster = async () =>
      h.producer.status === 'ready' &&
      Number(((await h.producer.config('GET', 'port').catch(() => [])) as string[])[1]) === newMaster;
    for (let i = 0; !(await onNewMaster()); i++) {
      if (i > 100) throw new Error('the producer did not move to the new master');
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = await h.queue.enqueue(testJob('test.echo', { text: 'after failover' }));
    expect(await h.queue.waitUntilDone(after.id, 15_000)).toMatchObject({
      state: 'completed',
      result: { echo: 'after failover' },
    });
    expect(await h.queue.get(before.id)).toMatchObject({ state: 'completed', result: { echo: 'before' } });
  }, 20_000);
});
