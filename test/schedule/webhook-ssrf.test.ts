// Webhooks and server-side request forgery: a URL whose host is or resolves to loopback, private, link-local,
// metadata, CGNAT, unspecified or multicast addresses is refused at registration (422 naming `url`, without
// quoting it); an endpoint applied behind the API's back is refused at delivery after DNS resolution, redirects
// are not followed, and callers see a fixed reason while the log keeps the low-level one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import type { KubeObject } from '../../src/services/ports.js';
import { adoptCluster, HUB, startBed, STATE_NS, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-x';
/** Allowed by the configuration below; everything else on loopback is not. */
const ALLOWED = '127.0.0.2';

let bed: Bed;
let receiver: Server;
let port = 0;
let timers: { close(): void } | undefined;
const logLines: string[] = [];
const posts: string[] = [];
const ref = (name: string) => ({ hub: HUB, namespace: STATE_NS, name });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    posts.push(req.url ?? '');
    req.resume();
    if (req.url === '/redirect') res.writeHead(302, { location: `http://${ALLOWED}:${port}/landed` }).end();
    else res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, ALLOWED, () => r()));
  port = (receiver.address() as AddressInfo).port;
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
  bed = await startBed(T0, { logTo: logs, env: { BEEKEEPER_WEBHOOK_ALLOW_CIDRS: `${ALLOWED}/32` } });
  await adoptCluster(bed, NS, 'temp', { annotations: { 'hive.openshift.io/protected-delete': 'false' } });
  const policy = await bed.app.inject({
    method: 'POST',
    url: '/v1/expiry-policies',
    payload: { name: 'team-x', selector: { namespaces: [NS] }, maxLifetime: '72h', warnings: ['2h'] },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  const expiry = await bed.app.inject({
    method: 'PUT',
    url: `/v1/clusters/${HUB}/${NS}/temp/expiry`,
    payload: { expiresIn: '3h' },
  });
  expect(expiry.statusCode, expiry.body).toBe(200);
  await bed.system.store.waitFor('ExpiryPolicy', ref('team-x'), (o) => o, { timeoutMs: 10_000 });
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

describe('webhook URLs and server-side request forgery', () => {
  it.each([
    ['http://127.0.0.1:6379/', 'loopback'],
    ['http://localhost:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://0x7f000001/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fd00:ec2::254]/latest/', 'cloud metadata'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'cloud metadata'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://172.20.0.1/hook', 'private'],
    ['https://192.168.1.10/hook', 'private'],
    ['https://[fd12:3456::1]/hook', 'private'],
    ['http://169.254.10.1/hook', 'link-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://100.64.0.7/hook', 'shared (CGNAT)'],
    ['http://0.0.0.0:8080/hook', 'unspecified'],
    ['http://224.0.0.1/hook', 'multicast'],
  ])('registering %s is refused (%s)', async (url, range) => {
    const res = await bed.app.inject({ method: 'PUT', url: '/v1/webhooks/bad', payload: { url } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const body = res.json();
    expect(body.errors).toEqual([
      { field: 'url', reason: expect.stringContaining(` ${range} address, where webhooks may not post`) },
    ]);
    expect(res.body).not.toContain(new URL(url).hostname);
  });

  it('a public address, an allowed range and a name that does not resolve yet are accepted', async () => {
    for (const [name, url] of [
      ['public', 'https://203.0.114.9/hook'],
      ['allowed', `http://${ALLOWED}:${port}/redirect`],
      ['unresolved', 'https://hooks.invalid/beekeeper'],
    ]) {
      const res = await bed.app.inject({ method: 'PUT', url: `/v1/webhooks/${name}`, payload: { url } });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    }
    for (const name of ['public', 'unresolved'])
      expect((await bed.app.inject({ method: 'DELETE', url: `/v1/webhooks/${name}` })).statusCode).toBe(204);
  });

  it('delivery resolves the name again and refuses a loopback address; redirects are not followed', async () => {
    // Applied with kubectl: the API never saw it. `localhost` resolves to loopback only once delivering.
    const { store } = bed.system;
    await store.create('WebhookEndpoint', HUB, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'WebhookEndpoint',
      metadata: { name: 'sneaky', namespace: STATE_NS },
      spec: { url: `http://localhost:${port}/sneaky` },
    });
    for (const name of ['allowed', 'sneaky'])
      await store.waitFor('WebhookEndpoint', ref(name), (o) => o, { timeoutMs: 10_000 });

    timers = startExpiryTimers(bed.timerDeps());
    const expiresAt = Date.parse(
      (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json().expiresAt,
    );
    bed.clock.set(expiresAt - 2 * H + 1000);
    const lastDelivery = (name: string) =>
      store.waitFor<KubeObject & { status?: { lastDelivery?: { message?: string } } }, { message?: string }>(
        'WebhookEndpoint',
        ref(name),
        (o) => o?.status?.lastDelivery,
        { timeoutMs: 15_000 },
      );
    expect((await lastDelivery('sneaky')).message).toBe('webhook sneaky: address not allowed');
    expect((await lastDelivery('allowed')).message).toBe('webhook allowed: redirect not followed (302)');
    expect(posts).toEqual(['/redirect']); // nothing at /landed, nothing at /sneaky

    const api = (await bed.app.inject({ method: 'GET', url: '/v1/webhooks/sneaky' })).json();
    expect(api.lastDelivery).toMatchObject({ ok: false, message: 'webhook sneaky: address not allowed' });
    expect(api.lastDelivery.message).not.toMatch(/127\.0\.0\.1|::1|EADDR/);
    const logged = logLines.filter((l) => l.includes('webhook delivery failed') && l.includes('"webhook":"sneaky"'));
    expect(logged.some((l) => l.includes('EADDRREFUSEDBYPOLICY') && l.includes('loopback'))).toBe(true);
  });
});
