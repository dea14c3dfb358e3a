// Two `npm start`s on one Redis each run a private simulator: a job queued by one must run on that one, or it
// would "complete" against the other's simulator and the cluster would never appear where it was asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createRedis, closeRedis, waitReady } from '../../src/redis/connect.js';
import { createSystem, type System } from '../../src/system.js';
import { quietLog, REDIS_URL } from './support.js';

// No hubs and no prefix: exactly what `npm start` reads (a fast simulator, and the demo seed's Secrets).
const embedded = () =>
  createSystem({
    config: loadConfig({ REDIS_URL: REDIS_URL(), PORT: '0', BEEKEEPER_SIM_SPEED: '1000' }),
    log: quietLog,
    clock: systemClock,
    roles: ['api', 'worker'],
  });

let a: System;
let b: System;
beforeAll(async () => {
  [a, b] = await Promise.all([embedded(), embedded()]);
});
afterAll(async () => Promise.all([a?.close(), b?.close()]));

describe('embedded mode on a shared Redis', () => {
  it('each process has queues of its own, so its jobs run on its own simulator; its keys go when it stops', async () => {
    expect(a.config.redis.prefix).toMatch(/^\{beekeeper-embedded-[0-9a-f]{8}\}$/);
    expect(b.config.redis.prefix).not.toBe(a.config.redis.prefix);

    // Both create the same name, each in its own simulator: with shared queues the second job would collapse
    // into the first or run against the other simulator.
    const body = {
      hub: 'local',
      namespace: 'demo',
      name: 'twin',
      baseDomain: 'demo.example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
      imageSet: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
    };
    const answers = await Promise.all(
      [a, b].map((s) => s.app.inject({ method: 'POST', url: '/v1/clusters?wait=60', payload: body })),
    );
    for (const res of answers) expect(res.json().job.state).toBe('completed');
    for (const s of [a, b])
      expect((await s.app.inject({ method: 'GET', url: '/v1/clusters/local/demo/twin' })).statusCode).toBe(200);

    const prefix = a.config.redis.prefix;
    const redis = createRedis({ url: REDIS_URL(), prefix }, 'producer');
    await waitReady(redis);
    expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    await a.close();
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
    await closeRedis(redis);
  });
});
