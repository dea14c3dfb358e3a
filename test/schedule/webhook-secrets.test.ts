// Webhook URLs are credentials (userinfo, and the path of a Slack incoming webhook): the API and the
// WebhookEndpoint resource show only the redacted form, the full URL lives in the Secret `webhook-<name>`, the
// receiver still gets its deliveries (userinfo as HTTP Basic), and a failing delivery's job error, status and
// log lines never quote it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import { adoptCluster, HUB, startBed, STATE_NS, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-s';
/** Every credential-bearing part of the URLs below; none may show outside the Secret and the request itself. */
const SECRETS = [
  's3cr3t-slack-token',
  'B0SECRET',
  'alice-user',
  'pa55word-xyz',
  'hook-s3cr3t-path',
  'bob-user',
  'hunter2-down',
  'd0wn-token',
  'q-t0ken',
  'g1t0ps-token',
];

let bed: Bed;
let receiver: Server;
let port = 0;
let closedPort = 0;
let timers: { close(): void } | undefined;
const logLines: string[] = [];
const posts: Array<{ path: string; authorization?: string; body: string }> = [];
const waiters: Array<() => void> = [];
const arrived = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (posts.length >= n ? resolve() : waiters.push(check));
    check();
  });
const leaks = (text: string) => SECRETS.filter((s) => text.includes(s));
const ref = (name: string) => ({ hub: HUB, namespace: STATE_NS, name });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  port = (receiver.address() as AddressInfo).port;
  // A port nobody listens on: deliveries there fail with a network error.
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));

  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
  bed = await startBed(T0, { logTo: logs });
  await adoptCluster(bed, NS, 'temp', { annotations: { 'hive.openshift.io/protected-delete': 'false' } });
  const policy = await bed.app.inject({
    method: 'POST',
    url: '/v1/expiry-policies',
    payload: { name: 'team-s', selector: { namespaces: [NS] }, maxLifetime: '72h', warnings: ['2h', '30m'] },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  const expiry = await bed.app.inject({
    method: 'PUT',
    url: `/v1/clusters/${HUB}/${NS}/temp/expiry`,
    payload: { expiresIn: '3h' },
  });
  expect(expiry.statusCode, expiry.body).toBe(200);
  await bed.system.store.waitFor('ExpiryPolicy', ref('team-s'), (o) => o, { timeoutMs: 10_000 });
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

describe('webhook URLs are secrets', () => {
  it('GET shows only the redacted URL; the resource holds the redacted form and the Secret the full URL', async () => {
    const slackUrl = `http://127.0.0.1:${port}/services/T000/B0SECRET/s3cr3t-slack-token`;
    const slack = await bed.app.inject({
      method: 'PUT',
      url: '/v1/webhooks/chat',
      payload: { url: slackUrl, format: 'slack' },
    });
    expect(slack.statusCode, slack.body).toBe(200);
    expect(slack.json().url).toBe(`http://127.0.0.1:${port}/services/T000/***`);
    const basic = await bed.app.inject({
      method: 'PUT',
      url: '/v1/webhooks/ops',
      payload: {
        url: `http://alice-user:pa55word-xyz@127.0.0.1:${port}/hook-s3cr3t-path?token=q-t0ken`,
        secret: `whsec_${Buffer.from('a-long-shared-hmac-key-for-tests').toString('base64')}`,
      },
    });
    expect(basic.statusCode, basic.body).toBe(200);
    expect(basic.json()).toMatchObject({ url: `http://***@127.0.0.1:${port}/***?***`, signed: true });
    for (const name of ['chat', 'ops'])
      await bed.system.store.waitFor('WebhookEndpoint', ref(name), (o) => o, { timeoutMs: 10_000 });

    const list = await bed.app.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(list.json().items.map((i: { name: string; url: string }) => [i.name, i.url])).toEqual([
      ['chat', `http://127.0.0.1:${port}/services/T000/***`],
      ['ops', `http://***@127.0.0.1:${port}/***?***`],
    ]);
    const one = await bed.app.inject({ method: 'GET', url: '/v1/webhooks/chat' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      name: 'chat',
      url: `http://127.0.0.1:${port}/services/T000/***`,
      format: 'slack',
      signed: false,
    });
    expect(leaks(list.body + one.body + slack.body + basic.body)).toEqual([]);
    expect((await bed.app.inject({ method: 'GET', url: '/v1/webhooks/nope' })).statusCode).toBe(404);

    const resource = await bed.system.store.get<KubeObject>('WebhookEndpoint', ref('chat'));
    expect(leaks(JSON.stringify(resource))).toEqual([]);
    const secret = await bed.system.store.get<KubeObject & { data: Record<string, string> }>(
      'Secret',
      ref('webhook-chat'),
    );
    expect(Buffer.from(secret!.data.url!, 'base64').toString()).toBe(slackUrl);
  });

  it('a bad URL is refused without quoting it, and changes nothing', async () => {
    const res = await bed.app.inject({
      method: 'PUT',
      url: '/v1/webhooks/chat',
      payload: { url: 'ftp://carol:pa55word-xyz@files.example.com/x', format: 'slack' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'url' })]);
    expect(leaks(res.body)).toEqual([]);
    expect((await bed.app.inject({ method: 'GET', url: '/v1/webhooks/chat' })).json().url).toBe(
      `http://127.0.0.1:${port}/services/T000/***`,
    );
  });

  it('the receivers still get the warning at the full URL, userinfo sent as HTTP Basic', async () => {
    // GitOps: endpoints applied with kubectl, one whose URL is in a Secret of its own, one with a plain URL.
    const { store } = bed.system;
    const gitopsUrl = `http://127.0.0.1:${port}/gitops/g1t0ps-token`;
    await store.create('Secret', HUB, {
      metadata: { name: 'gitops-hook', namespace: STATE_NS },
      data: { endpoint: Buffer.from(gitopsUrl).toString('base64') },
    });
    const endpoint = (name: string, spec: object) =>
      store.create('WebhookEndpoint', HUB, {
        apiVersion: 'beekeeper.io/v1beta1',
        kind: 'WebhookEndpoint',
        metadata: { name, namespace: STATE_NS },
        spec,
      });
    await endpoint('gitops', { urlSecretRef: { name: 'gitops-hook', key: 'endpoint' } });
    await endpoint('plain', { url: `http://127.0.0.1:${port}/plain` });
    for (const name of ['gitops', 'plain'])
      await store.waitFor('WebhookEndpoint', ref(name), (o) => o, { timeoutMs: 10_000 });
    const list = await bed.app.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(leaks(list.body)).toEqual([]);

    timers = startExpiryTimers(bed.timerDeps());
    const expiresAt = Date.parse(
      (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json().expiresAt,
    );
    bed.clock.set(expiresAt - 2 * H + 1000);
    await arrived(4);
    expect(
      posts
        .map((p) => p.path)
        .filter((p) => !p.startsWith('/services/') && !p.startsWith('/hook'))
        .sort(),
    ).toEqual(['/gitops/g1t0ps-token', '/plain']);
    const slack = posts.find((p) => p.path.startsWith('/services/'))!;
    expect(slack.path).toBe('/services/T000/B0SECRET/s3cr3t-slack-token');
    expect(JSON.parse(slack.body).text).toMatch(/Cluster east\/team-s\/temp will be deleted/);
    const generic = posts.find((p) => p.path.startsWith('/hook'))!;
    expect(generic.path).toBe('/hook-s3cr3t-path?token=q-t0ken');
    expect(generic.authorization).toBe(`Basic ${Buffer.from('alice-user:pa55word-xyz').toString('base64')}`);
    expect(JSON.parse(generic.body)).toMatchObject({ type: 'ClusterExpiryWarning', lead: '2h' });
  });

  it("a failing delivery's job error, endpoint status and logs never quote the URL", async () => {
    for (const name of ['chat', 'ops', 'gitops', 'plain']) {
      expect((await bed.app.inject({ method: 'DELETE', url: `/v1/webhooks/${name}` })).statusCode).toBe(204);
      await bed.system.store.waitFor('WebhookEndpoint', ref(name), (o) => (o ? undefined : true), {
        timeoutMs: 10_000,
      });
      expect(await bed.system.store.get('Secret', ref(`webhook-${name}`))).toBeUndefined();
    }
    expect(await bed.system.store.get('Secret', ref('gitops-hook'))).toBeDefined(); // not Beekeeper's to delete
    const down = await bed.app.inject({
      method: 'PUT',
      url: '/v1/webhooks/down',
      payload: { url: `http://bob-user:hunter2-down@127.0.0.1:${closedPort}/services/T9/B9/d0wn-token` },
    });
    expect(down.statusCode, down.body).toBe(200);
    await bed.system.store.waitFor('WebhookEndpoint', ref('down'), (o) => o, { timeoutMs: 10_000 });

    const view = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/temp/expiry` })).json();
    const expiresAtMs = Date.parse(view.expiresAt);
    // The hub's queue prefixes job ids with the hub name.
    const jobId =
      `${HUB}.` + jobIds.warn({ kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'temp', expiresAtMs }, '30m');
    const failed = new Promise<JobView>((resolve) => {
      const off = bed.system.queue.watch(jobId, (job) => {
        if (!job.error) return;
        off();
        resolve(job);
      });
    });
    bed.clock.set(expiresAtMs - 30 * 60_000 + 1000);
    const job = await failed;
    expect(job.error!.message).toMatch(/failed for down/);
    expect(leaks(JSON.stringify(job))).toEqual([]);

    const status = await bed.system.store.waitFor<
      KubeObject & { status?: { lastDelivery?: { ok: boolean; message?: string } } },
      { ok: boolean; message?: string }
    >('WebhookEndpoint', ref('down'), (o) => o?.status?.lastDelivery, { timeoutMs: 10_000 });
    expect(status.ok).toBe(false);
    // Callers get a fixed reason; the low-level one (the error code, the address) is in the log only.
    expect(status.message).toBe('webhook down: connection refused');
    const api = await bed.app.inject({ method: 'GET', url: '/v1/webhooks/down' });
    expect(api.json().lastDelivery).toMatchObject({ ok: false });
    expect(leaks(api.body)).toEqual([]);

    const failures = logLines.filter((l) => l.includes('webhook delivery failed'));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.some((l) => l.includes('ECONNREFUSED') && l.includes('"webhook":"down"'))).toBe(true);
    expect(logLines.filter((l) => leaks(l).length > 0)).toEqual([]);
  });
});
