// The drill harness does what drills rely on: its Redis forgets on FLUSHALL and on a restart without a file, keeps
// what it had across a restart with one, and its role processes stop cleanly on SIGTERM and die on SIGKILL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startDrill, type Drill } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const dirs: string[] = [];
const servers: RedisServer[] = [];
let drill: Drill | undefined;

afterAll(async () => {
  await drill?.close();
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function redisWith(aof: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'beekeeper-drill-test-'));
  dirs.push(dir);
  const server = await startRedisServer({ dir, aof });
  servers.push(server);
  return server;
}

async function valueAfter(server: RedisServer, change: () => Promise<void>): Promise<string | null> {
  const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
  try {
    await client.set('drill:key', 'kept');
    await change();
    const again = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      return await again.get('drill:key');
    } finally {
      again.disconnect();
    }
  } finally {
    client.disconnect();
  }
}

describe('the drill harness', () => {
  it('gives a private Redis that forgets on FLUSHALL and a restart, and keeps its data across a restart with AOF', async () => {
    const plain = await redisWith(false);
    expect(await valueAfter(plain, () => plain.flushAll())).toBeNull();
    expect(await valueAfter(plain, () => plain.restart())).toBeNull();
    const aof = await redisWith(true);
    expect(await valueAfter(aof, () => aof.restart())).toBe('kept');
    await aof.stop();
    expect(aof.running()).toBe(false);
    await aof.start();
    expect(aof.running()).toBe(true);
  });

  it('starts roles as processes that answer, stop cleanly on SIGTERM and die on SIGKILL', async () => {
    drill = await startDrill({ roles: { worker: 1, scheduler: 0, api: 1 } });
    expect((await drill.api('GET', '/v1/hubs')).status).toBe(200);
    const [worker, api] = drill.roles;
    expect((await drill.metrics(worker)).has('beekeeper_hub_reachable{hub="east"}')).toBe(true);
    expect(await worker!.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await api!.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
  }, 120_000);
});
