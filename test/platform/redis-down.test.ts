import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import { buildServer } from '../../src/http/server.js';
import { createJobQueue, type BullJobQueue } from '../../src/jobs/job-queue.js';
import { closeRedis, createRedis, type RedisClient } from '../../src/redis/connect.js';
import { fakeStore, FAST_JOBS, quietLog, testConfig, testJob } from './support.js';
import { configTeamDirectory } from '../../src/auth/team-directory.js';

describe('API while Redis is down', () => {
  let app: FastifyInstance;
  let queue: BullJobQueue;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    // Port 1 never answers: Redis is "down" for this whole file.
    const config = testConfig({ REDIS_URL: 'redis://127.0.0.1:1' });
    const [producer, listener] = [createRedis(config.redis, 'producer'), createRedis(config.redis, 'worker')];
    for (const c of [producer, listener]) c.on('error', () => undefined);
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
      routes: [async (r) => void r.post('/things', async (_req, reply) => reply.code(201).send({ ok: true }))],
      redis: producer,
      queuesForBoard: [],
    });
  });
  afterAll(async () => {
    await app?.close();
    await queue?.close().catch(() => undefined);
    for (const c of clients) await closeRedis(c);
  });

  it('answers 503 with Retry-After at once instead of hanging, and says it is not ready', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/jobs' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'Unavailable', detail: expect.stringMatching(/Redis/) });
    await expect(queue.enqueue(testJob('x', {}))).rejects.toMatchObject({ code: 'Unavailable' });
    // An Idempotency-Key needs Redis to be honoured, so the request is refused rather than run unprotected.
    expect(
      (await app.inject({ method: 'POST', url: '/v1/things', headers: { 'idempotency-key': 'k1' }, payload: {} }))
        .statusCode,
    ).toBe(503);
    expect((await app.inject({ method: 'POST', url: '/v1/things', payload: {} })).statusCode).toBe(201);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'not ready' });
  });
});
