// Requests mean exactly what they say, on every route: a body field of the wrong JSON type or an unknown field is
// a 422 naming it (never coerced, never dropped), nothing is written for a refused request, and no error echoes a
// huge value back. The operations come from the served OpenAPI document, so a new route cannot skip the rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KindName } from '../../src/services/ports.js';
import { createBody, HUB, prerequisites, startBed, type Bed } from '../clusters/support.js';

let bed: Bed;
const ns = 'strict';

interface Answer {
  status: number;
  type: string;
  body: { code?: string; detail?: string; errors?: Array<{ field: string; reason: string }> };
  text: string;
}

async function send(method: string, url: string, payload?: unknown): Promise<Answer> {
  const res = await bed.app.inject({
    method: method as 'POST',
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    body: res.body ? res.json() : {},
    text: res.body,
  };
}

const fields = (a: Answer) => (a.body.errors ?? []).map((e) => e.field).sort();

/** Every object a request could write, and every job: what a refused request must leave unchanged. */
async function snapshot(): Promise<string[]> {
  const kinds: KindName[] = [
    'Namespace',
    'Secret',
    'ClusterDeployment',
    'ClusterPool',
    'ClusterClaim',
    'Lease',
    'HibernationSchedule',
    'ClusterOverride',
    'ExpiryPolicy',
    'WebhookEndpoint',
  ];
  const out: string[] = [];
  for (const kind of kinds) {
    for (const o of await bed.system.store.list(kind, HUB))
      out.push(`${kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  }
  for (const j of await bed.system.queue.list({ limit: 1000 })) out.push(`job ${j.id}`);
  return out.sort();
}

// A valid body for each operation that takes one (path parameters filled in below). The test fails for an
// operation missing here, so a new route gets its sample, and with it the checks.
const SAMPLES: Record<string, unknown> = {
  'POST /v1/clusters': createBody(ns, 'sample'),
  'PUT /v1/clusters/{hub}/{namespace}/{name}/expiry': { expiresIn: '8h' },
  'POST /v1/clusters/{hub}/{namespace}/{name}/expiry/extend': { extendBy: '2h', by: 'alice', reason: 'demo on Friday' },
  'POST /v1/clusters/{hub}/{namespace}/{name}/overrides': {
    type: 'keepAwake',
    for: '4h',
    by: 'alice',
    reason: 'demo on Friday',
  },
  'POST /v1/pools': {
    hub: HUB,
    namespace: ns,
    name: 'sample',
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'example.com',
    imageSetName: 'openshift-v4.16.3',
    size: 1,
  },
  'PATCH /v1/pools/{hub}/{namespace}/{name}': { size: 2, labels: { team: 'payments' } },
  'POST /v1/claims': { pool: `${HUB}/${ns}/sample`, lifetime: '2h', heartbeatTimeout: '5m' },
  'PATCH /v1/claims/{hub}/{namespace}/{name}': { extendBy: '1h' },
  'POST /v1/claims/{hub}/{namespace}/{name}/heartbeat': { holder: 'ci-runner-7' },
  'POST /v1/schedules': {
    name: 'sample',
    timeZone: 'Europe/Berlin',
    windows: [{ days: ['Mon'], start: '07:00', end: '19:00' }],
    dryRun: true,
  },
  'PUT /v1/schedules/{name}': {
    timeZone: 'Europe/Berlin',
    cron: { hibernate: '0 19 * * 1-5', resume: '0 7 * * 1-5' },
    enforce: false,
  },
  'POST /v1/expiry-policies': { name: 'sample', selector: { namespaces: [ns] }, maxLifetime: '72h', warnings: ['1h'] },
  'PUT /v1/expiry-policies/{name}': { maxLifetime: '72h', dryRun: true },
  'PUT /v1/webhooks/{name}': { url: 'https://hooks.example.com/beekeeper', format: 'generic' },
  'POST /v1/relocations': { from: HUB, to: HUB, selector: { namespaces: [ns] }, skipFailed: true, dryRun: true },
  'POST /v1/relocations/{id}/abort': { by: 'alice' },
};
const PARAMS: Record<string, string> = { hub: HUB, namespace: ns, name: 'sample', id: 'sample' };

/** The same value with another JSON type: what coercion used to accept (`"x"` as `["x"]`, `5` as `"5"`). */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value[0] ?? 'x';
  return [value];
}

let operations: Array<{ key: string; method: string; url: string; hasBody: boolean }>;

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
  const spec = (await bed.app.inject({ url: '/openapi.json' })).json<{
    paths: Record<string, Record<string, { requestBody?: unknown }>>;
  }>();
  operations = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      url: path.replace(/\{(\w+)\}/g, (_, p: string) => PARAMS[p]!),
      hasBody: op.requestBody !== undefined,
    })),
  );
});
afterAll(async () => bed?.close());

describe('request bodies on every route', () => {
  it('an unknown field or a field of the wrong JSON type is 422 naming each, and nothing is written', async () => {
    const before = await snapshot();
    const withBody = operations.filter((o) => o.hasBody);
    expect(withBody.length).toBeGreaterThanOrEqual(14);
    for (const op of withBody) {
      const sample = SAMPLES[op.key] as Record<string, unknown> | undefined;
      expect(sample, `add a sample body for ${op.key} to SAMPLES`).toBeDefined();
      const body = JSON.parse(JSON.stringify(sample)) as Record<string, unknown>;

      const unknown = await send(op.method, op.url, { ...body, surprise: true });
      expect({ op: op.key, status: unknown.status, type: unknown.type }).toEqual({
        op: op.key,
        status: 422,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect(unknown.body.errors, op.key).toEqual([{ field: 'surprise', reason: 'unknown field' }]);

      const mistyped = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, wrongType(v)]));
      const wrong = await send(op.method, op.url, mistyped);
      expect({ op: op.key, status: wrong.status }).toEqual({ op: op.key, status: 422 });
      expect({ op: op.key, fields: [...new Set(fields(wrong))] }).toEqual({
        op: op.key,
        fields: Object.keys(body).sort(),
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an operation that takes no body refuses one with fields (422 naming them) and does nothing', async () => {
    const before = await snapshot();
    const mutations = operations.filter((o) => !o.hasBody && o.method !== 'GET');
    expect(mutations.map((o) => o.key)).toEqual(
      expect.arrayContaining([
        'POST /v1/expiry/sweep',
        'POST /v1/clusters/{hub}/{namespace}/{name}/hibernate',
        'DELETE /v1/claims/{hub}/{namespace}/{name}',
      ]),
    );
    for (const op of mutations) {
      // `dryRun` belongs in the query string here: sent in the body it used to be ignored, and the sweep ran.
      const res = await send(op.method, op.url, { dryRun: true });
      expect({ op: op.key, status: res.status, fields: fields(res) }).toEqual({
        op: op.key,
        status: 422,
        fields: ['dryRun'],
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an array item is named one way, windows[0].start, whether the schema or the service refuses it', async () => {
    const window = (start: unknown, days: unknown[] = ['Mon']) => ({
      name: 'items',
      timeZone: 'UTC',
      windows: [
        { days: ['Tue'], start: '07:00', end: '19:00' },
        { days, start, end: '19:00' },
      ],
    });
    const wrongType = await send('POST', '/v1/schedules', window(7));
    const badTime = await send('POST', '/v1/schedules', window('25:00'));
    expect([wrongType.status, badTime.status]).toEqual([422, 422]);
    expect(fields(wrongType)).toEqual(['windows[1].start']);
    expect(fields(badTime)).toEqual(['windows[1].start']);
    expect(wrongType.body.detail).toContain('windows[1].start');
    // A number where a weekday belongs: one issue listing the weekdays, not a type per weekday.
    const day = await send('POST', '/v1/schedules', window('07:00', ['Mon', 5]));
    expect(day.body.errors).toEqual([
      { field: 'windows[1].days[1]', reason: 'must be one of "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"' },
    ]);
    expect((await send('GET', '/v1/schedules/items')).status).toBe(404);
  });

  it('an expiry policy selector with a misplaced key, or an empty list that would cover every cluster, is refused', async () => {
    const misplaced = await send('POST', '/v1/expiry-policies', {
      name: 'typo',
      maxLifetime: '8h',
      selector: { namespace: [ns] },
    });
    expect(misplaced.status).toBe(422);
    expect(misplaced.body.errors).toEqual([{ field: 'selector.namespace', reason: 'unknown field' }]);
    const empty = await send('POST', '/v1/expiry-policies', {
      name: 'empty',
      maxLifetime: '8h',
      selector: { namespaces: [] },
    });
    expect(empty.status).toBe(422);
    expect(fields(empty)).toEqual(['selector.namespaces']);
    expect((await send('GET', '/v1/expiry-policies')).body).toEqual({ items: [] });
  });
});

describe('claims take the body as sent', () => {
  beforeAll(async () => {
    const pool = await send('POST', '/v1/pools', {
      hub: HUB,
      namespace: ns,
      name: 'demo-aws',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size: 0,
    });
    expect(pool.status, pool.text).toBe(201);
  });
  const claims = async () =>
    (await bed.system.store.list('ClusterClaim', HUB, { namespace: ns })).map((c) => c.metadata.name);

  it('a list where a string belongs, or a number for a version, is 422 naming the field; no claim is made', async () => {
    const pool = `${HUB}/${ns}/demo-aws`;
    const cases: Array<[unknown, string]> = [
      [{ pool: [pool] }, 'pool'],
      [{ pool, lifetime: ['2h'] }, 'lifetime'],
      [{ pool, heartbeatTimeout: ['5m'] }, 'heartbeatTimeout'],
      [{ selector: { version: 4.16 } }, 'selector.version'],
    ];
    for (const [body, field] of cases) {
      const res = await send('POST', '/v1/claims', body);
      expect({ body, status: res.status, fields: fields(res) }).toEqual({ body, status: 422, fields: [field] });
      expect(res.body.code).toBe('Invalid');
    }
    expect(await claims()).toEqual([]);
    // The same requests, as meant, are claims.
    expect((await send('POST', '/v1/claims', { selector: { version: '4.16' }, name: 'as-meant' })).status).toBe(201);
    expect(await claims()).toEqual(['as-meant']);
  });

  it('a pool that does not exist is 422 naming pool', async () => {
    const res = await send('POST', '/v1/claims', { pool: `${HUB}/${ns}/no-such-pool` });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'pool', reason: expect.stringContaining('no-such-pool') }]);
  });
});

describe('huge values in errors', () => {
  it('a 100,000-character value is never echoed back whole, on any route', async () => {
    const huge = (c: string) => c.repeat(100_000);
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/v1/claims', { pool: huge('p') }],
      ['POST', '/v1/clusters', createBody(ns, 'huge', { labels: { [huge('l')]: 'x' } })],
      ['POST', '/v1/clusters', createBody(ns, 'huge', { imageSet: huge('i') })],
      [
        'POST',
        '/v1/schedules',
        { name: 'huge', timeZone: huge('z'), windows: [{ days: ['Mon'], start: '07:00', end: '19:00' }] },
      ],
      ['POST', '/v1/expiry-policies', { name: 'huge', [huge('k')]: true }],
      [
        'POST',
        `/v1/clusters/${HUB}/${ns}/absent/overrides`,
        { type: 'keepAwake', for: huge('9'), by: 'alice', reason: 'r' },
      ],
    ];
    for (const [method, url, body] of cases) {
      const res = await send(method, url, body);
      expect({ url, status: res.status >= 400 && res.status < 500 }).toEqual({ url, status: true });
      expect(res.type).toMatch(/^application\/problem\+json/);
      expect({ url, length: res.text.length < 5000 }).toEqual({ url, length: true });
    }
  });
});
