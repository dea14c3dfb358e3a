import { connect } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestServer, createHarness, type Harness } from './support.js';

// Stand-ins for feature routes: a POST without a body (like /hibernate) and one with a JSON body.
const routes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/things/:name/poke', async (req) => ({
    poked: (req.params as { name: string }).name,
    body: req.body ?? null,
  }));
  app.post(
    '/things',
    {
      schema: {
        body: Type.Object(
          { name: Type.String(), size: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (req) => req.body,
  );
};

describe('HTTP input the defaults got wrong', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness();
    app = await buildTestServer(h, [routes]);
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('refuses a huge number in the query with 400 naming the field (ajv lets Infinity past maximum)', async () => {
    const res = await app.inject({ url: '/v1/jobs?limit=1e400' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'BadRequest',
      errors: [{ field: 'limit', reason: 'must be a finite number' }],
    });
    expect((await app.inject({ url: '/v1/jobs?limit=1e3' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/v1/jobs?limit=5' })).statusCode).toBe(200);
  });

  it('refuses a huge number in a JSON body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","size":1e400}',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'size' }] });
  });

  it('refuses JSON nested thousands of levels deep with 400 naming the limit (it overflowed the stack: 500)', async () => {
    const deep = `{"name":"a","size":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    // The Idempotency-Key fingerprint walked the body recursively; so does JSON.stringify on the way to a hub.
    for (const [url, headers] of [
      ['/v1/things/t1/poke', { 'idempotency-key': 'deep-1' }],
      ['/v1/things', {}],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: deep,
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().detail).toBe('the JSON body nests deeper than 64 levels, the most this API reads');
    }
    // Brackets inside strings are text, not nesting.
    const text = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-2' },
      payload: JSON.stringify({ name: '['.repeat(5000) }),
    });
    expect(text.statusCode).toBe(200);
  });

  it('an operation without a body refuses fields sent to it (422 naming them), and takes {} as no body', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/things/t1/poke', payload: { force: true } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'Invalid',
      errors: [{ field: 'force', reason: 'unknown field: this operation takes no body' }],
    });
    expect((await app.inject({ method: 'POST', url: '/v1/things/t1/poke', payload: {} })).statusCode).toBe(200);
  });

  it('answers an over-long path segment (414) or a malformed one (400) with problem+json, not echoing it', async () => {
    const long = await app.inject({ url: `/v1/jobs/local.${'x'.repeat(5000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(long.json()).toMatchObject({
      status: 414,
      detail: 'a path segment is longer than 264 characters, longer than any name or job id',
    });
    expect(long.body.length).toBeLessThan(1000);
    const bad = await app.inject({ url: '/v1/jobs/local.%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers headers larger than the server reads with a 431 problem+json', async () => {
    const base = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(base.port), base.hostname, () => {
        socket.write(`GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', (err) => (text ? resolve(text) : reject(err)));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 431, code: 'BadRequest', detail: expect.stringContaining('16 KiB') });
  });

  it('answers 415 saying to send JSON when the body is text or a form', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/things',
        headers: { 'content-type': type },
        payload: '{"name":"a"}',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().detail).toBe(`send the body as JSON (Content-Type: application/json), not ${type}`);
    }
  });

  it('takes an empty body sent as application/json as no body, and still refuses malformed or poisoned JSON', async () => {
    const empty = await app.inject({
      method: 'POST',
      url: '/v1/things/t1/poke',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ poked: 't1', body: null });
    const needsBody = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(needsBody.statusCode).toBe(422);
    const malformed = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'BadRequest' });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
