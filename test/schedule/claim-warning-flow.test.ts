// Warnings before a claim's lifetime ends: Hive starts the clock when the claim is claimed and deletes the
// claim when it runs out (REFERENCE.md §5); Beekeeper warns the claimant first, once per lead time reached, when
// it is reached: a lead longer than the claim's whole lifetime is moot (issue 8: every claim of 24h or less got a
// "deletion soon" webhook the moment it was made).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import type { KubeObject } from '../../src/services/ports.js';
import { HUB, startBed, type Bed } from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
let bed: Bed;
let receiver: Server;
const posts: Array<Record<string, unknown>> = [];
const waiters: Array<() => void> = [];
let timers: ReturnType<typeof startExpiryTimers> | undefined;

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
      posts.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  bed = await startBed(Date.parse('2026-11-23T09:00:00Z'));
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
      size: 1,
      runningCount: 1,
    },
  });
  expect(pool.statusCode, pool.body).toBe(201);
  const hook = await bed.app.inject({
    method: 'PUT',
    url: '/v1/webhooks/ci',
    payload: {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      secret: `whsec_${Buffer.from('another-long-hmac-key-for-tests').toString('base64')}`,
    },
  });
  expect(hook.statusCode, hook.body).toBe(200);
  await store.waitFor('WebhookEndpoint', { hub: HUB, namespace: 'beekeeper', name: 'ci' }, (o) => o, {
    timeoutMs: 10_000,
  });
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

describe("warnings before a claim's lifetime ends", () => {
  it('a 2h claim gets no warning when it is made and the 1h warning exactly at its time, with the claim and its cluster and an Event on the claim', async () => {
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/claims?wait=60',
      payload: { pool: 'ci', name: 'run-42', lifetime: '2h' },
    });
    expect(res.statusCode, res.body).toBe(201);
    type Claim = KubeObject & {
      status?: { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
    };
    const pendingDone = (o: Claim | undefined) =>
      o?.status?.conditions?.find((c) => c.type === 'Pending' && c.status === 'False');
    const pending = await bed.system.store.waitFor<Claim, NonNullable<ReturnType<typeof pendingDone>>>(
      'ClusterClaim',
      { hub: HUB, namespace: 'pools', name: 'run-42' },
      pendingDone,
      {
        timeoutMs: 60_000,
      },
    );
    const claimedAt = Date.parse(pending.lastTransitionTime!);
    const oneHourBefore = claimedAt + 3_600_000;

    // Every warning the timers ask for, seen as they ask (enqueueing is what a due warning does).
    const asked: string[] = [];
    const deps = bed.timerDeps();
    timers = startExpiryTimers({
      ...deps,
      queue: {
        ...deps.queue,
        enqueue: (job, opts) => (
          job.type === 'expiry.warn' && asked.push(String(job.payload.lead)),
          deps.queue.enqueue(job, opts)
        ),
      },
    });
    // Leads 24h and 1h: 24h is longer than the claim's whole life, so it is moot, not due at once.
    expect(asked).toEqual([]);
    expect(timers.pending()[`claim/${HUB}/pools/run-42`]).toBe(new Date(oneHourBefore).toISOString());
    const listed = (await bed.app.inject({ method: 'GET', url: '/v1/warnings' })).json().expiry;
    expect(listed).toContainEqual(
      expect.objectContaining({
        kind: 'ClusterClaim',
        name: 'run-42',
        moot: ['24h'],
        nextWarningAt: new Date(oneHourBefore).toISOString(),
      }),
    );
    bed.clock.set(oneHourBefore - 1);
    expect(asked).toEqual([]);
    bed.clock.set(oneHourBefore);
    expect(asked).toEqual(['1h']);

    await arrived(1);
    expect(posts[0]).toMatchObject({
      type: 'ClaimExpiryWarning',
      lead: '1h',
      claim: { namespace: 'pools', name: 'run-42' },
      expiresAt: new Date(claimedAt + 2 * 3_600_000).toISOString(),
    });
    expect((posts[0]!.cluster as { namespace: string }).namespace).toMatch(/^ci-/);
    await bed.system.store.waitFor(
      'ClusterClaim',
      { hub: HUB, namespace: 'pools', name: 'run-42' },
      (o) =>
        JSON.parse(o?.metadata.annotations?.['beekeeper.io/expiry-warnings'] ?? '{}').sent?.['1h']?.ci ? o : undefined,
      { timeoutMs: 10_000 },
    );
    const events = await bed.system.store.list<
      KubeObject & { reason?: string; involvedObject?: { kind?: string; name?: string } }
    >('Event', HUB, { namespace: 'pools' });
    expect(
      events.filter(
        (e) =>
          e.reason === 'ExpiryWarning' &&
          e.involvedObject?.kind === 'ClusterClaim' &&
          e.involvedObject.name === 'run-42',
      ),
    ).toHaveLength(1);
    const warnings = (await bed.app.inject({ method: 'GET', url: '/v1/warnings' })).json().expiry;
    expect(warnings).toContainEqual(
      expect.objectContaining({
        kind: 'ClusterClaim',
        name: 'run-42',
        delivered: { '1h': expect.objectContaining({ ci: expect.any(String) }) },
      }),
    );
    expect(posts).toHaveLength(1);
  });
});
