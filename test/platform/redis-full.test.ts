// Redis runs with maxmemory-policy noeviction (BullMQ requires it), so when it is full it refuses writes with OOM
// instead of evicting jobs. A caller then gets what a Redis outage gives: 503 with Retry-After, never a 500.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import { replyWithJob } from '../../src/http/reply-job.js';
import { buildServer } from '../../src/http/server.js';
import { createJobQueue, type BullJobQueue } from '../../src/jobs/job-queue.js';
import { closeRedis, createRedis, type RedisClient } from '../../src/redis/connect.js';
import { startRedisServer, type RedisServer } from '../drills/redis-server.js';
import { fakeStore, FAST_JOBS, quietLog, testConfig, testJob } from './support.js';
import { configTeamDirectory } from '../../src/auth/team-directory.js';

describe('API while Redis is full', () => {
  let dir: string;
  let server: RedisServer;
  let app: FastifyInstance;
  let queue: BullJobQueue;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'beekeeper-redis-full-'));
    server = await startRedisServer({ dir });
    const config = testConfig({ REDIS_URL: server.url });
    const [producer, listener] = [createRedis(config.redis, 'producer'), createRedis(config.redis, 'worker')];
    clients.push(producer, listener);
    queue = createJobQueue({
      producer,
      listener,
      prefix: config.redis.prefix,
      hubs: ['local'],
      defaultHub: 'local',
      jobs: FAST_JOBS,
      log: quietLog,
    });
    app = await buildServer({
      teams: configTeamDirectory(config),
      config,
      log: quietLog,
      queue,
      store: fakeStore(),
      metrics: createMetrics({ defaultMetrics: false }),
      routes: [
        async (r) =>
          void r.post('/things', async (_req, reply) =>
            replyWithJob(reply, queue, await queue.enqueue(testJob('cluster.delete', { name: 'web-1' }))),
          ),
      ],
      redis: producer,
      queuesForBoard: [],
    });
    // Any write now exceeds the limit.
    const admin = new Redis(server.url);
    await admin.config('SET', 'maxmemory', '1');
    admin.disconnect();
  });
  afterAll(async () => {
    await app?.close();
    await queue?.close().catch(() => undefined);
    for (const c of clients) await closeRedis(c);
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After when a job cannot be written, with or without an Idempotency-Key', async () => {
    for (const headers of [{}, { 'idempotency-key': 'full-1' }]) {
      const res = await app.inject({ method: 'POST', url: '/v1/things', headers, payload: {} });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toMatchObject({ code: 'Unavailable', detail: expect.stringMatching(/Redis/) });
    }
    // Reads still work: the API keeps answering about jobs it has.
    expect((await app.inject({ method: 'GET', url: '/v1/jobs' })).statusCode).toBe(200);
  });
});
