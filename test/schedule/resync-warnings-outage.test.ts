// Issue 9: with Redis unavailable while claims' expiry warnings fell due, the scheduler logged "cannot enqueue expiry
// job" and most claims never got their warning. Now the resync runs as soon as Redis answers again and sends every
// warning still useful exactly once (the delivery record is the claim's beekeeper.io/expiry-warnings annotation);
// a claim that expired meanwhile gets none.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/services/ports.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { HUB, startBed, type Bed } from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const MINUTE = 60_000;
const LONG = Array.from({ length: 20 }, (_, i) => `run-${String(i).padStart(2, '0')}`);
const SHORT = ['short-0', 'short-1'];
type Claim = KubeObject & {
  status?: { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
};

let redis: PrivateRedis;
let bed: Bed;
let receiver: Server;
const posts: Array<{ claim?: { name: string }; lead?: string }> = [];
const waiters: Array<() => void> = [];
const arrived = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (posts.length >= n ? resolve() : waiters.push(check));
    check();
  });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts.push(JSON.parse(body) as (typeof posts)[number]);
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  redis = await startPrivateRedis();
  bed = await startBed(Date.parse('2026-11-23T09:00:00Z'), {
    env: { REDIS_URL: redis.url, BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400' },
    roles: ['api', 'worker', 'scheduler'],
  });
  const { store } = bed.system;
  await store.create('Namespace', HUB, { metadata: { name: 'pools' } });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace: 'pools' },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace: 'pools' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  });
  await store.create('ClusterImageSet', HUB, {
    metadata: { name: 'openshift-v4.17.9' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
  });
  await store.waitFor('ClusterImageSet', { hub: HUB, name: 'openshift-v4.17.9' }, (o) => o, { timeoutMs: 10_000 });
  const size = LONG.length + SHORT.length;
  const pool = await bed.app.inject({
    method: 'POST',
    url: '/v1/pools',
    payload: {
      hub: HUB,
      namespace: 'pools',
      name: 'ci',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.17.9',
      pullSecretRef: 'pull-secret',
      size,
      runningCount: size,
    },
  });
  expect(pool.statusCode, pool.body).toBe(201);
  const hook = await bed.app.inject({
    method: 'PUT',
    url: '/v1/webhooks/ci',
    payload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` },
  });
  expect(hook.statusCode, hook.body).toBe(200);
  await store.waitFor('WebhookEndpoint', { hub: HUB, namespace: 'beekeeper', name: 'ci' }, (o) => o, {
    timeoutMs: 10_000,
  });
}, 180_000);

afterAll(async () => {
  await bed?.close();
  await redis?.close();
  await new Promise((r) => receiver?.close(r));
});

const claimed = (name: string) =>
  bed.system.store.waitFor<Claim, number>(
    'ClusterClaim',
    { hub: HUB, namespace: 'pools', name },
    (o) => {
      const c = o?.status?.conditions?.find((x) => x.type === 'Pending' && x.status === 'False');
      return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
    },
    { timeoutMs: 120_000 },
  );

describe('warnings due while Redis is down', () => {
  it('are each delivered once as soon as Redis is back, and none after its claim expired', async () => {
    for (const [names, lifetime] of [
      [LONG, '2h'],
      [SHORT, '1h10m'],
    ] as const) {
      for (const name of names) {
        const res = await bed.app.inject({
          method: 'POST',
          url: '/v1/claims',
          payload: { pool: 'ci', name, lifetime },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
    }
    const claimedAt = await Promise.all([...LONG, ...SHORT].map(claimed));
    const last = Math.max(...claimedAt);
    expect(posts).toEqual([]);

    await redis.stop();
    // The 1h warnings of every 2h claim fall due, and the 1h10m claims pass their expiry, all while Redis is down.
    bed.clock.set(last + 75 * MINUTE);
    expect(posts).toEqual([]);
    const recovered = new Promise((resolve) => bed.system.resync!.onRun((r) => r.trigger === 'recovery' && resolve(r)));
    await redis.start();

    // The recovery resync sends the warnings the outage held back. Nearly always all 20; a few fewer when the
    // scheduler's enqueue went out on the connection just before it saw Redis go: presumably ioredis sends a
    // command still unanswered again when its first reconnect succeeds (the producer's maxRetriesPerRequest is
    // 1), and that job then delivers its warning (seen once in CI: 18 repaired). Either way each warning arrives
    // once (below).
    const run = (await recovered) as { trigger: string; repairs: { warning?: number } };
    expect(run.trigger).toBe('recovery');
    const repaired = run.repairs.warning ?? 0;
    expect(repaired).toBeGreaterThan(LONG.length / 2);
    expect(repaired).toBeLessThanOrEqual(LONG.length);
    await arrived(LONG.length);
    const byClaim = new Map<string, number>();
    for (const p of posts) byClaim.set(p.claim!.name, (byClaim.get(p.claim!.name) ?? 0) + 1);
    expect([...byClaim.keys()].sort()).toEqual(LONG);
    expect(posts.every((p) => p.lead === '1h')).toBe(true);

    // The record in Kubernetes says where each warning went; with it in the cache a further run sends nothing.
    for (const name of LONG) {
      await bed.system.store.waitFor(
        'ClusterClaim',
        { hub: HUB, namespace: 'pools', name },
        (o) => {
          const rec = o?.metadata.annotations?.['beekeeper.io/expiry-warnings'];
          return rec && JSON.parse(rec).sent?.['1h']?.ci && JSON.parse(rec).sent['1h']['kubernetes-event']
            ? o
            : undefined;
        },
        { timeoutMs: 20_000 },
      );
    }
    const resync = (await bed.app.inject({ method: 'GET', url: '/v1/resync' })).json();
    expect(resync.lastResync).toMatchObject({ trigger: 'recovery', repairs: { warning: repaired } });
    expect(await bed.system.metrics.registry.getSingleMetricAsString('beekeeper_resync_repairs_total')).toContain(
      `beekeeper_resync_repairs_total{repair="warning"} ${repaired}`,
    );
    expect((await bed.system.resync!.runOnce('after-recovery'))?.repairs).toEqual({});
    bed.clock.set(last + 90 * MINUTE);
    expect((await bed.system.resync!.runOnce('later'))?.repairs).toEqual({});
    expect(posts).toHaveLength(LONG.length);
  }, 240_000);
});
