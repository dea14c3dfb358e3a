import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createHarness, type Harness } from '../platform/support.js';
import { haveRedisBinaries, startSentinel, type Topology } from './support.js';

describe.skipIf(!haveRedisBinaries)('jobs through Redis Sentinel', () => {
  let topology: Topology;
  let h: Harness;

  beforeAll(async () => {
    topology = await startSentinel('bk-master');
    const config = loadConfig({
      BEEKEEPER_REDIS_SENTINELS: topology.addresses,
      BEEKEEPER_REDIS_SENTINEL_NAME: 'bk-master',
      BEEKEEPER_REDIS_PREFIX: `{bk-sentinel-${randomUUID().slice(0, 8)}}`,
    });
    h = await createHarness({ config });
  }, 20_000);
  afterAll(async () => {
    await h?.close();
    await topology?.close();
  });

  it('runs a job to completion on the master the sentinel names, with its steps and result', async () => {
    await h.startWorkers({
      'test.echo': async (p, ctx) => {
        await ctx.step('echoing', String(p.text));
        return { echo: p.text };
      },
    });
    const job = await h.queue.enqueue('test.echo', { text: 'via sentinel' }, { target: { kind: 'ClusterDeployment', hub: 'local', namespace: 'ns', name: 'c1' } });
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect(done).toMatchObject({ state: 'completed', result: { echo: 'via sentinel' }, target: { name: 'c1' } });
    expect(done.steps.map((s) => s.step)).toEqual(['echoing']);
    // The queue really lives on the master the sentinel resolved, under the configured prefix.
    expect(await h.producer.keys(`${h.config.redis.prefix}:ops-local:*`)).not.toHaveLength(0);
  });
});
