import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import type { JobView } from '../../src/services/ports.js';
import { demoRoutes } from './demo-routes.js';
import {
  buildTestServer,
  startTestRefresher,
  createHarness,
  gate,
  sseEvents,
  testConfig,
  type Harness,
} from './support.js';

describe('HTTP edge', () => {
  let h: Harness;
  let app: FastifyInstance;
  const gates = new Map<string, ReturnType<typeof gate<void>>>();
  const started = new Map<string, ReturnType<typeof gate<void>>>();

  const metrics = createMetrics({ defaultMetrics: false });
  let refresher: Awaited<ReturnType<typeof startTestRefresher>>;

  beforeAll(async () => {
    h = await createHarness();
    refresher = await startTestRefresher(h, metrics);
    app = await buildTestServer(h, [demoRoutes(h)], { metrics, hubs: () => refresher.hubs.current() });
    await h.startWorkers(
      {
        'test.demo': async (p, ctx) => {
          await ctx.step('Started', `for ${String(p.name)}`);
          started.get(String(p.name))?.open();
          const g = gates.get(String(p.name));
          if (g) await g.promise;
          await ctx.step('Finished');
          return { name: p.name };
        },
      },
      { metrics },
    );
  });
  afterAll(async () => {
    await app?.close();
    await refresher?.close();
    await h?.close();
  });

  it('shows a job going waiting -> active -> completed with its steps, through GET and Server-Sent Events', async () => {
    const g = gate();
    gates.set('c1', g);
    const post = await app.inject({ method: 'POST', url: '/v1/demo-jobs', payload: { name: 'c1' } });
    expect(post.statusCode).toBe(202);
    const { job } = post.json<{ job: JobView }>();
    expect(post.headers.location).toBe(`/v1/jobs/${job.id}`);

    const events = app.inject({ method: 'GET', url: `/v1/jobs/${job.id}/events` });
    // Wait for the first step through the queue's own change feed, then read it over HTTP.
    await new Promise<void>((resolve) => {
      const stop = h.queue.watch(job.id, (v) => v.steps.length > 0 && (stop(), resolve()));
    });
    const running = (await app.inject({ method: 'GET', url: `/v1/jobs/${job.id}` })).json<{ job: JobView }>().job;
    expect(running).toMatchObject({ state: 'active', steps: [{ step: 'Started', message: 'for c1' }] });

    g.open();
    const stream = await events;
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const seen = sseEvents<JobView>(stream.body);
    expect(seen.map((v) => v.state)).toContain('active');
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ id: job.id, state: 'completed', result: { name: 'c1' } });
    expect(last.steps.map((s) => s.step)).toEqual(['Started', 'Finished']);

    const done = (await app.inject({ method: 'GET', url: `/v1/jobs/${job.id}` })).json<{ job: JobView }>().job;
    expect(done).toMatchObject({ state: 'completed', attempts: 1 });
    expect(done.finishedAt).toBeDefined();
    const listed = (await app.inject({ method: 'GET', url: '/v1/jobs?state=completed&type=test.demo' })).json<{
      items: JobView[];
    }>();
    expect(listed.items.map((j) => j.id)).toContain(job.id);
  });

  it('answers 200 with the finished job when ?wait covers it, 202 while still running', async () => {
    const quick = await app.inject({ method: 'POST', url: '/v1/demo-jobs?wait=10', payload: { name: 'c2' } });
    expect(quick.statusCode).toBe(200);
    expect(quick.json()).toMatchObject({ job: { state: 'completed', result: { name: 'c2' } } });

    const g = gate();
    gates.set('c3', g);
    const slow = await app.inject({ method: 'POST', url: '/v1/demo-jobs?wait=1', payload: { name: 'c3' } });
    expect(slow.statusCode).toBe(202);
    const id = slow.json<{ job: JobView }>().job.id;
    expect(slow.json<{ job: JobView }>().job.state).not.toBe('completed');
    const waiting = app.inject({ method: 'GET', url: `/v1/jobs/${id}?wait=10` });
    g.open();
    expect((await waiting).json()).toMatchObject({ job: { id, state: 'completed' } });
  });

  it('replays a POST with the same Idempotency-Key (whatever its ?wait) and refuses the key with a different body', async () => {
    const headers = { 'idempotency-key': 'create-c4-7f3a' };
    const first = await app.inject({ method: 'POST', url: '/v1/demo-jobs', headers, payload: { name: 'c4', size: 1 } });
    const again = await app.inject({ method: 'POST', url: '/v1/demo-jobs', headers, payload: { size: 1, name: 'c4' } });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ job: JobView }>().job.id).toBe(first.json<{ job: JobView }>().job.id);
    const withWait = await app.inject({
      method: 'POST',
      url: '/v1/demo-jobs?wait=0',
      headers,
      payload: { name: 'c4', size: 1 },
    });
    expect(withWait.headers['idempotent-replayed']).toBe('true');
    expect(withWait.json<{ job: JobView }>().job.id).toBe(first.json<{ job: JobView }>().job.id);
    expect(
      (await h.queue.list({ type: 'test.demo' })).filter((j) => j.steps.some((s) => s.message === 'for c4')),
    ).toHaveLength(1);

    const other = await app.inject({ method: 'POST', url: '/v1/demo-jobs', headers, payload: { name: 'c5' } });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'Invalid', errors: [{ field: 'Idempotency-Key' }] });
  });

  it('refuses a retry while the first request with that Idempotency-Key is still running', async () => {
    const g = gate();
    const running = gate();
    gates.set('c6', g);
    started.set('c6', running);
    const headers = { 'idempotency-key': 'create-c6' };
    const first = app.inject({ method: 'POST', url: '/v1/demo-jobs?wait=30', headers, payload: { name: 'c6' } });
    await running.promise;
    const retry = await app.inject({ method: 'POST', url: '/v1/demo-jobs?wait=30', headers, payload: { name: 'c6' } });
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({ code: 'Conflict', detail: expect.stringMatching(/still being processed/) });
    g.open();
    expect((await first).statusCode).toBe(200);
  });

  it('maps each domain error to problem+json with its status', async () => {
    const cases: Array<[string, number, string]> = [
      ['notfound', 404, 'NotFound'],
      ['conflict', 409, 'Conflict'],
      ['invalid', 422, 'Invalid'],
      ['forbidden', 403, 'Forbidden'],
      ['unavailable', 503, 'Unavailable'],
    ];
    for (const [kind, status, code] of cases) {
      const res = await app.inject({ method: 'GET', url: `/v1/boom/${kind}` });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ type: 'about:blank', status, code, instance: `/v1/boom/${kind}` });
    }
    expect((await app.inject({ method: 'GET', url: '/v1/boom/invalid' })).json().errors).toEqual([
      { field: 'platform.aws.region', reason: 'is required' },
    ]);
    expect((await app.inject({ method: 'GET', url: '/v1/boom/unavailable' })).headers['retry-after']).toBe('7');
  });

  it('hides unexpected errors behind a correlation id', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/boom/bug' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ code: 'InternalError', correlationId: res.headers['x-request-id'] });
    expect(res.body).not.toContain('hunter2');
  });

  it('names every bad field of a request that fails validation: 422 for the body, 400 for the query', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/demo-jobs', payload: { size: 0, colour: 'red' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'Invalid' });
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['colour', 'name', 'size']);
    const q = await app.inject({ method: 'GET', url: '/v1/jobs?limit=0' });
    expect(q.statusCode).toBe(400);
    expect(q.json()).toMatchObject({ code: 'BadRequest', errors: [{ field: 'limit' }] });
    // An enum is named once with its values, not once per value.
    const e = await app.inject({ method: 'GET', url: '/v1/jobs?state=bogus' });
    expect(e.statusCode).toBe(400);
    expect(e.json().errors).toEqual([
      {
        field: 'state',
        reason: expect.stringMatching(/^must be one of "waiting", "delayed", "active", "completed", "failed"/),
      },
    ]);
    expect((await app.inject({ method: 'GET', url: '/v1/jobs/local.missing' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/nothing-here' })).json()).toMatchObject({
      status: 404,
      code: 'NotFound',
    });
  });

  it('serves probes, metrics, the API description, docs and the queue dashboard', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
      status: 'ready',
      redis: 'ok',
      hubs: [{ name: 'local', reachable: true }],
    });
    // Job counts are read from Redis by the periodic refresh, not by the scrape.
    await refresher.refresh();
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('beekeeper_http_request_duration_seconds_bucket');
    expect(metrics.body).toMatch(/beekeeper_jobs\{hub="local",class="background",state="completed"\} [1-9]/);
    expect(metrics.body).toMatch(/beekeeper_jobs\{hub="local",class="interactive",state="waiting"\} 0/);
    expect(metrics.body).toMatch(/beekeeper_jobs_finished_total\{type="test.demo",outcome="completed"\} [1-9]/);
    // beekeeper_power_transitions_total comes from the power jobs themselves: test/clusters/power.test.ts.
    const spec = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/v1/jobs', '/v1/jobs/{id}', '/v1/jobs/{id}/events']),
    );
    expect(Object.keys(spec.paths).some((p) => p.startsWith('/admin'))).toBe(false);
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
    expect(
      (await app.inject({ method: 'GET', url: '/admin/queues/api/queues' }))
        .json()
        .queues.map((q: { name: string }) => q.name),
    ).toEqual(['ops-local', 'ops-local.background']);
  });
});

describe('HTTP edge with API tokens', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness({ config: testConfig({ BEEKEEPER_API_TOKENS: 'ci=ci-token-0123456789abcdef' }) });
    app = await buildTestServer(h);
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('requires a bearer token on the API and the dashboard, not on probes', async () => {
    const none = await app.inject({ method: 'GET', url: '/v1/jobs' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toMatchObject({ code: 'Unauthorized' });
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/v1/jobs',
          headers: { authorization: 'Bearer wrong-token-0123456789' },
        })
      ).statusCode,
    ).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/admin/queues/api/queues' })).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/v1/jobs',
          headers: { authorization: 'Bearer ci-token-0123456789abcdef' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
