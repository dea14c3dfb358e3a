import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestServer, createHarness, testConfig, type Harness } from './support.js';

const TOKEN = 'ci-token-0123456789abcdef';
const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe('queue dashboard behind API tokens', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness({
      config: testConfig({ BEEKEEPER_API_TOKENS: `ci=${TOKEN},ops=ops-token-0123456789abcdef` }),
    });
    app = await buildTestServer(h);
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });
  const board = (authorization?: string) =>
    app.inject({ url: '/admin/queues/api/queues', headers: authorization ? { authorization } : {} });

  it('asks a browser for a name and token (Basic) and lets the right pair in', async () => {
    const none = await app.inject({ url: '/admin/queues' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Basic realm="beekeeper"');
    expect(none.json()).toMatchObject({ code: 'Unauthorized' });

    const ok = await board(basic(`ci:${TOKEN}`));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().queues.map((q: { name: string }) => q.name)).toEqual(['ops-local', 'ops-local.background']);
    expect(
      (await app.inject({ url: '/admin/queues', headers: { authorization: basic(`ci:${TOKEN}`) } })).statusCode,
    ).toBe(200);
  });

  it('refuses a wrong token, a token under another holder name, and garbage', async () => {
    for (const authorization of [
      basic('ci:wrong-token-0123456789'),
      basic(`ops:${TOKEN}`),
      basic(TOKEN),
      'Basic !!!',
      basic(`:${TOKEN}`),
    ]) {
      const res = await board(authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="beekeeper"');
    }
  });

  it('still takes a bearer token on the dashboard', async () => {
    expect((await board(`Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('keeps Basic off the API: /v1 answers 401 with a Bearer challenge', async () => {
    const res = await app.inject({ url: '/v1/jobs', headers: { authorization: basic(`ci:${TOKEN}`) } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    // A path that merely starts like the dashboard's is not the dashboard.
    expect(
      (await app.inject({ url: '/admin/queuesx', headers: { authorization: basic(`ci:${TOKEN}`) } })).statusCode,
    ).toBe(401);
  });
});
