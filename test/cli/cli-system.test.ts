// The CLI against the composed system as `npm start` builds it (every role in one process, the embedded
// simulator seeded with the demo pool): proves the pools and claims feature is wired into the real API.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { ALL_ROLES, createSystem, type System } from '../../src/system.js';

let system: System;
let url: string;
let config: ReturnType<typeof loadConfig>;

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { BEEKEEPER_URL: url },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    writeSecretFile: async () => undefined,
    signal: new AbortController().signal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  config = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-cli-system-${randomUUID().slice(0, 8)}}`,
    BEEKEEPER_SIM_SPEED: '2000',
  });
  system = await createSystem({ config, log: createLogger({ level: 'silent' }), clock: systemClock, roles: ALL_ROLES });
  url = await system.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await system?.close();
  // Leave nothing behind in the shared Redis.
  const redis = createRedis(config.redis, 'producer');
  await waitReady(redis);
  const keys = await redis.keys(`${config.redis.prefix}*`);
  if (keys.length) await redis.del(...keys);
  await closeRedis(redis);
});

it('claims from the demo pool of `npm start`, heartbeats, and releases', async () => {
  const claimed = await cli([
    'claim',
    '--pool',
    'demo-aws',
    '--lifetime',
    '1h',
    '--heartbeat-timeout',
    '5m',
    '--wait',
    '60s',
    '--json',
  ]);
  expect(claimed.code, claimed.err).toBe(0);
  const view = JSON.parse(claimed.out);
  expect(view).toMatchObject({ pool: 'local/demo/demo-aws', phase: 'Running', heartbeatTimeoutSeconds: 300 });
  expect((await cli(['heartbeat', view.id, '--once'])).code).toBe(0);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toContain('beekeeper_pool_clusters{hub="local",namespace="demo",pool="demo-aws",state="ready"}');
  const released = await cli(['release', view.id, '--wait', '30s']);
  expect(released.code, released.err).toBe(0);
}, 60_000);
