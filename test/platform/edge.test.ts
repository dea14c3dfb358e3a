// The HTTP edge (docs/edge.md): X-Request-Id kept when sane and logged, a rate limit per caller shared by replicas
// through Redis (probes exempt, 429 problem+json with Retry-After and the limit), CORS only for configured
// origins (preflights answered before sign-in), and security headers that leave /docs and the dashboard working.
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { needs } from '../support/needs.js';
import { buildTestServer, createHarness, testConfig, type Harness } from './support.js';

const CI = 'ci-token-0123456789abcdef';
const OPS = 'ops-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const noChromium = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM}`;

describe('the edge, with tokens, a small rate limit and a portal origin', () => {
  let h: Harness;
  let app: FastifyInstance;
  let replica: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    h = await createHarness({
      config: testConfig({
        BEEKEEPER_API_TOKENS: `ci=${CI},ops=${OPS}`,
        BEEKEEPER_RATE_LIMIT_PER_MINUTE: '5',
        BEEKEEPER_CORS_ORIGINS: 'https://portal.example.com',
      }),
    });
    const logs = new PassThrough();
    logs.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    app = await buildTestServer(h, [], { log: createLogger({ level: 'info', destination: logs }) });
    // Another API replica on the same Redis: it shares the counts.
    replica = await buildTestServer(h);
  });
  afterAll(async () => {
    await app?.close();
    await replica?.close();
    await h?.close();
  });

  it("keeps a client's sane X-Request-Id, returns it and logs it; replaces one that is not", async () => {
    const kept = await app.inject({ url: '/v1/jobs', headers: { ...bearer(OPS), 'x-request-id': 'portal-42.abc' } });
    expect(kept.statusCode).toBe(200);
    expect(kept.headers['x-request-id']).toBe('portal-42.abc');
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === 'portal-42.abc');
    expect(line).toMatchObject({ msg: 'request', route: '/v1/jobs', status: 200, principal: 'ops' });
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '']) {
      const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
    }
    expect((await app.inject({ url: '/healthz' })).headers['x-request-id']).toMatch(UUID);
  });

  it('limits each caller, across replicas, with a 429 problem naming the limit and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ url: '/v1/jobs', headers: bearer(CI) })).statusCode);
    // The fifth on the other replica: the count is shared.
    statuses.push((await replica.inject({ url: '/v1/jobs', headers: bearer(CI) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await replica.inject({ url: '/v1/jobs', headers: bearer(CI) });
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json()).toMatchObject({ status: 429, code: 'TooManyRequests', limit: 5 });
    expect(over.json().retryAfterSeconds).toBe(Number(over.headers['retry-after']));
    expect((await app.inject({ url: '/v1/jobs', headers: bearer(CI) })).statusCode).toBe(429);
    // Another caller has a count of its own; probes and metrics are never limited.
    const ops = await app.inject({ url: '/v1/jobs', headers: bearer(OPS) });
    expect(ops.statusCode).toBe(200);
    expect(ops.headers['ratelimit-limit']).toBe('5');
    expect(Number(ops.headers['ratelimit-remaining'])).toBeLessThan(5);
    for (let i = 0; i < 8; i++) {
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(200);
    }
    // Counts live under the configuration's prefix, keyed by the caller's name (never the token).
    const keys = await h.producer.keys(`${h.config.redis.prefix}:rate-limit:*`);
    expect(keys.some((k) => k.endsWith('caller:ci'))).toBe(true);
    expect(keys.join(' ')).not.toContain(CI);
  });

  it('answers a preflight from the portal before sign-in, and CORS headers only for that origin', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/clusters',
      headers: {
        origin: 'https://portal.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key,x-request-id',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://portal.example.com');
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['authorization', 'idempotency-key', 'x-request-id']) expect(allowed).toContain(header);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('DELETE');

    const get = await app.inject({
      url: '/v1/jobs',
      headers: { ...bearer(OPS), origin: 'https://portal.example.com' },
    });
    expect(get.headers['access-control-allow-origin']).toBe('https://portal.example.com');
    const exposed = String(get.headers['access-control-expose-headers']).toLowerCase();
    for (const header of ['x-request-id', 'location', 'retry-after']) expect(exposed).toContain(header);

    const other = await app.inject({ url: '/v1/jobs', headers: { ...bearer(OPS), origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("sends OWASP's REST security headers on every API answer, a 401 too, and no HSTS (TLS ends in front)", async () => {
    for (const res of [await app.inject({ url: '/v1/jobs' }), await app.inject({ url: '/healthz' })]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("sends helmet's headers and a same-origin policy on the API description's pages", async () => {
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("object-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the edge by default', () => {
  let h: Harness;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    h = await createHarness({ config: testConfig({ BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0' }) });
    app = await buildTestServer(h);
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('sends no CORS headers when no origin is configured; a limit of 0 limits nothing', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await app.inject({ url: '/v1/jobs', headers: { origin: 'https://portal.example.com' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('/docs renders in a browser under the policy', { ...needs(noChromium), timeout: 60_000 }, async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => void problems.push(String(e)));
      await page.route('**/*', (route) =>
        new URL(route.request().url()).origin === base ? route.continue() : route.abort(),
      );
      await page.goto(`${base}/docs`, { waitUntil: 'load' });
      // Swagger UI ran its scripts, fetched the document and rendered an operation.
      await page.getByText('/v1/jobs').first().waitFor({ timeout: 15_000 });
      expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('the edge settings', () => {
  it('reads lists from the environment and names a bad entry by its variable', () => {
    const config = loadConfig({
      BEEKEEPER_CORS_ORIGINS: 'https://portal.example.com, http://localhost:3000',
      BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '10.20.0.0/16,fd12:3456::/48',
      BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0',
    });
    expect(config.edge).toEqual({
      rateLimit: { perMinute: 0 },
      corsOrigins: ['https://portal.example.com', 'http://localhost:3000'],
    });
    expect(config.webhooks).toEqual({ allowPrivate: false, allowCidrs: ['10.20.0.0/16', 'fd12:3456::/48'] });
    expect(loadConfig({}).edge).toEqual({ rateLimit: { perMinute: 600 }, corsOrigins: [] });

    let err: unknown;
    try {
      loadConfig({
        BEEKEEPER_CORS_ORIGINS: 'https://portal.example.com/app',
        BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '10.0.0.0/33',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues;
    expect(issues.some((i) => i.startsWith('BEEKEEPER_CORS_ORIGINS:') && i.includes('no path'))).toBe(true);
    expect(issues.some((i) => i.startsWith('BEEKEEPER_WEBHOOK_ALLOW_CIDRS:') && i.includes('must be a CIDR'))).toBe(
      true,
    );
  });
});
