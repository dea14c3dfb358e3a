// Expiry end to end: policy caps, an audited extension, warnings delivered once to a signed generic webhook
// and a Slack one (retried when the receiver fails), and Hive deleting the cluster through delete-after.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import { adoptCluster, events, HUB, startBed, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-b';
/** A Standard Webhooks secret: whsec_ and 32 bytes in base64. */
const KEY = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
let bed: Bed;
let receiver: Server;
let base = '';
const posts: Array<{
  path: string;
  body: string;
  headers: Record<string, string>;
  signature?: string;
  delivery?: string;
}> = [];
const waiters: Array<() => void> = [];
let failNextGeneric = 0;
const timers: Array<{ close(): void }> = [];

function postsArrived(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (posts.length >= n) resolve();
      else waiters.push(check);
    };
    check();
  });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/generic' && failNextGeneric > 0) {
        failNextGeneric--;
        res.writeHead(503).end();
        return;
      }
      posts.push({
        path: req.url ?? '',
        body,
        headers: req.headers as Record<string, string>,
        signature: req.headers['webhook-signature'] as string | undefined,
        delivery: req.headers['webhook-id'] as string | undefined,
      });
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  bed = await startBed(T0);
  await adoptCluster(bed, NS, 'temp', { annotations: { 'hive.openshift.io/protected-delete': 'false' } });
  const put = async (url: string, payload: object) => {
    const res = await bed.app.inject({ method: url.startsWith('/v1/webhooks') ? 'PUT' : 'POST', url, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  await put('/v1/webhooks/ops', { url: `${base}/generic`, secret: KEY });
  await put('/v1/webhooks/chat', { url: `${base}/slack`, format: 'slack' });
  await put('/v1/expiry-policies', {
    name: 'team-b',
    selector: { namespaces: [NS] },
    maxLifetime: '72h',
    warnings: ['2h', '30m'],
  });
  for (const [kind, name] of [
    ['WebhookEndpoint', 'ops'],
    ['WebhookEndpoint', 'chat'],
    ['ExpiryPolicy', 'team-b'],
  ] as const) {
    await bed.system.store.waitFor(kind, { hub: HUB, namespace: 'beekeeper', name }, (o) => o, { timeoutMs: 10_000 });
  }
}, 120_000);

afterAll(async () => {
  for (const t of timers) t.close();
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

describe('expiry with warnings', () => {
  it('shows the policy limits and refuses an extension past the cap, changing nothing', async () => {
    const set = await bed.app.inject({
      method: 'PUT',
      url: `/v1/clusters/${HUB}/${NS}/temp/expiry`,
      payload: { expiresIn: '3h' },
    });
    expect(set.statusCode, set.body).toBe(200);
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'temp' },
      (o) => (o?.metadata.annotations?.['hive.openshift.io/delete-after'] ? o : undefined),
      { timeoutMs: 10_000 },
    );
    const view = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json();
    expect(view.limits).toMatchObject({ maxLifetime: '72h', warnings: ['2h', '30m'], policies: ['team-b'] });
    const tooLong = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/temp/expiry/extend`,
      payload: { extendBy: '100h', by: 'bo', reason: 'long soak test' },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors).toEqual([
      expect.objectContaining({ field: 'extendBy', reason: expect.stringMatching(/latest allowed .*maxLifetime 72h/) }),
    ]);
    const after = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json();
    expect(after.expiresAt).toBe(view.expiresAt);
    expect(after.history).toEqual([expect.objectContaining({ action: 'set', to: view.expiresAt })]);
  });

  it('warns at the first lead time: signed generic JSON and a Slack message, plus an Event', async () => {
    timers.push(startExpiryTimers(bed.timerDeps()));
    const expiresAt = Date.parse(
      (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json().expiresAt,
    );
    failNextGeneric = 1; // the first delivery fails with 503: the job retries with backoff
    bed.clock.set(expiresAt - 2 * H + 1000);
    await postsArrived(2);
    const generic = posts.find((p) => p.path === '/generic')!;
    // A receiver verifies it with the Standard Webhooks library: signature, id and a fresh timestamp.
    expect(new Webhook(KEY).verify(generic.body, generic.headers)).toMatchObject({ type: 'ClusterExpiryWarning' });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(generic.body, generic.headers),
    ).toThrow();
    expect(generic.headers['webhook-id']).toBe(JSON.parse(generic.body).id);
    expect(JSON.parse(generic.body)).toMatchObject({
      type: 'ClusterExpiryWarning',
      lead: '2h',
      cluster: { hub: HUB, namespace: NS, name: 'temp' },
    });
    const slack = posts.find((p) => p.path === '/slack')!;
    expect(slack.signature).toBeUndefined();
    expect(JSON.parse(slack.body).text).toMatch(/Cluster east\/team-b\/temp will be deleted at .* \(in 2h\)/);
    expect((await events(bed, NS, 'temp')).filter((e) => e.reason === 'ExpiryWarning')).toHaveLength(1);
    const warnings = (await bed.app.inject({ method: 'GET', url: '/v1/warnings' })).json();
    const mine = warnings.expiry.find((w: { name: string }) => w.name === 'temp');
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'temp' },
      (o) => (o?.metadata.annotations?.['beekeeper.io/expiry-warnings']?.includes('"ops"') ? o : undefined),
      { timeoutMs: 10_000 },
    );
    expect(mine).toMatchObject({ leads: ['2h', '30m'] });
  });

  it('an audited extension moves the expiry, and warnings start afresh for the new time, each delivered once', async () => {
    const res = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/temp/expiry/extend`,
      payload: { extendBy: '1h', by: 'bo', reason: 'tests still running' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.history).toEqual([
      expect.objectContaining({ action: 'set' }),
      expect.objectContaining({ action: 'extend', by: 'bo', reason: 'tests still running' }),
    ]);
    expect((await events(bed, NS, 'temp')).map((e) => e.reason)).toContain('ExpiryExtended');
    const expiresAt = Date.parse(view.expiresAt);

    // A second scheduler replica (a separate Beekeeper instance with the scheduler role, sharing Redis) must not
    // send anything twice.
    const replica = await bed.startInstance(['scheduler']);
    await replica.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'temp' },
      (o) => (o?.metadata.annotations?.['hive.openshift.io/delete-after'] === view.deleteAfter ? o : undefined),
      { timeoutMs: 10_000 },
    );
    const before = posts.length;
    bed.clock.set(expiresAt - 2 * H + 1000);
    await postsArrived(before + 2);
    bed.clock.set(expiresAt - 30 * 60_000 + 1000);
    await postsArrived(before + 4);
    const leads = posts.slice(before).map((p) => `${p.path}:${p.path === '/generic' ? JSON.parse(p.body).lead : ''}`);
    expect(leads.sort()).toEqual(['/generic:2h', '/generic:30m', '/slack:', '/slack:']);
    const ids = posts.filter((p) => p.path === '/generic').map((p) => p.delivery);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("the cluster is deleted by Hive's delete-after annotation when the time comes", async () => {
    const expiresAt = Date.parse(
      (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json().expiresAt,
    );
    const gone = bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'temp' },
      (o) => (o ? undefined : true),
      { timeoutMs: 24 * H },
    );
    const sent = posts.length;
    bed.clock.set(expiresAt + 5000);
    await expect(gone).resolves.toBe(true);
    expect(posts.length).toBe(sent);
  });
});
