import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestServer, createHarness, gate, type Harness } from './support.js';

describe('Idempotency-Key held by a request that never finishes', () => {
  let h: Harness;
  let app: FastifyInstance;
  const entered = gate();
  const release = gate();
  const routes: FastifyPluginAsync = async (plain) => {
    plain.post('/stuck', async () => {
      entered.open();
      await release.promise;
      return { done: true };
    });
  };
  beforeAll(async () => {
    h = await createHarness();
    app = await buildTestServer(h, [routes]);
  });
  afterAll(async () => {
    release.open();
    await app?.close();
    await h?.close();
  });

  // If the API process dies mid-request, nothing ever completes the record: it must lapse in minutes (retries get
  // 409 meanwhile), while a finished request's answer is kept for a day.
  it('is held for minutes while in progress and for a day once answered', async () => {
    const ttls = async () =>
      Promise.all((await h.producer.keys(`${h.config.redis.prefix}:idem:*`)).map((k) => h.producer.ttl(k)));
    const first = app.inject({ method: 'POST', url: '/v1/stuck', headers: { 'idempotency-key': 'stuck-1' } });
    await entered.promise;
    const [holding] = await ttls();
    expect(holding).toBeGreaterThan(0);
    expect(holding).toBeLessThanOrEqual(120);
    expect(
      (await app.inject({ method: 'POST', url: '/v1/stuck', headers: { 'idempotency-key': 'stuck-1' } })).statusCode,
    ).toBe(409);

    release.open();
    expect((await first).statusCode).toBe(200);
    const [kept] = await ttls();
    expect(kept).toBeGreaterThan(23 * 3600);
  });
});
