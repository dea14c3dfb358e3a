// A webhook receiver down for longer than the warn job's attempts used to lose the warning for good: the job
// failed, and the timers counted the warning as sent because its Event was. The resync retries the failed job
// while the warning is still useful, so the receiver gets it once, when it is back; a warning whose cluster expired
// meanwhile is not sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CATALOG } from '../../src/jobs/catalog.js';
import { jobIds } from '../../src/services/job-ids.js';
import { clusterExpiry } from '../../src/services/expiry/index.js';
import type { KubeObject } from '../../src/services/ports.js';
import { adoptCluster, events, HUB, startBed, waitJob, type Bed } from './support.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

const MINUTE = 60_000;
const NS = 'expiring';
let bed: Bed;
let receiver: Server;
let down = true;
const refused: string[] = [];
const accepted: Array<{ cluster: { name: string }; lead: string; path?: string }> = [];
const waiters: Array<() => void> = [];
const arrived = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (accepted.length >= n ? resolve() : waiters.push(check));
    check();
  });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const notice = JSON.parse(body) as (typeof accepted)[number];
      if (down) {
        refused.push(notice.cluster.name);
        return void res.writeHead(503).end();
      }
      accepted.push({ ...notice, path: req.url });
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  bed = await startBed(Date.parse('2026-11-23T09:00:00Z'), {
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400' },
    roles: ['api', 'worker', 'scheduler'],
    // Two quick tries, so "down for longer than the job's attempts" takes no real time.
    catalog: { ...JOB_CATALOG, 'expiry.warn': { attempts: 2, backoffMs: 50 } },
  });
  const hook = await bed.app.inject({
    method: 'PUT',
    url: '/v1/webhooks/ops',
    payload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` },
  });
  expect(hook.statusCode, hook.body).toBe(200);
  await bed.system.store.waitFor('WebhookEndpoint', { hub: HUB, namespace: 'beekeeper', name: 'ops' }, (o) => o, {
    timeoutMs: 10_000,
  });
  await adoptCluster(bed, NS, 'soon', { annotations: { 'hive.openshift.io/delete-after': '1h30m' } });
  await adoptCluster(bed, NS, 'later', { annotations: { 'hive.openshift.io/delete-after': '3h' } });
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

const expiring = (name: string) =>
  clusterExpiry(
    HUB,
    bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: NS, name })!,
  )!;
const warnJob = (name: string) => `${HUB}.${jobIds.warn(expiring(name), '1h')}`;
const record = (name: string) =>
  JSON.parse(
    bed.system.store.cached<KubeObject>('ClusterDeployment', { hub: HUB, namespace: NS, name })?.metadata.annotations?.[
      'beekeeper.io/expiry-warnings'
    ] ?? '{"sent":{}}',
  );

describe("a webhook receiver down past the warn job's attempts", () => {
  it('gets the warning once when it is back, while the warning is useful, and not after the expiry', async () => {
    const soon = expiring('soon');
    const later = expiring('later');
    const soonJob = warnJob('soon');
    const laterJob = warnJob('later');

    bed.clock.set(soon.expiresAtMs - 59 * MINUTE);
    expect(await waitJob(bed, soonJob)).toMatchObject({ state: 'failed', attempts: 2 });
    bed.clock.set(later.expiresAtMs - 59 * MINUTE); // `soon` has expired by now
    expect(await waitJob(bed, laterJob)).toMatchObject({
      state: 'failed',
      attempts: 2,
      error: { reason: 'Unavailable' },
    });
    expect(refused.filter((n) => n === 'later')).toHaveLength(2);
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'later' },
      (o) => (o?.metadata.annotations?.['beekeeper.io/expiry-warnings'] ? o : undefined),
      { timeoutMs: 10_000 },
    );
    expect(record('later').sent['1h']).toEqual({ 'kubernetes-event': expect.any(String) });

    down = false;
    const run = await bed.system.resync!.runOnce();
    expect(run?.repairs).toEqual({ warning: 1 });
    await arrived(1);
    expect((await waitJob(bed, laterJob)).state).toBe('completed');
    expect(accepted).toEqual([
      expect.objectContaining({ cluster: expect.objectContaining({ name: 'later' }), lead: '1h' }),
    ]);
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'later' },
      (o) =>
        JSON.parse(o?.metadata.annotations?.['beekeeper.io/expiry-warnings'] ?? '{}').sent?.['1h']?.ops ? o : undefined,
      { timeoutMs: 10_000 },
    );
    expect(record('later').sent['1h']).toEqual({ 'kubernetes-event': expect.any(String), ops: expect.any(String) });
    // The Event went out the first time and is not repeated by the retry.
    expect((await events(bed, NS, 'later')).filter((e) => e.reason === 'ExpiryWarning')).toHaveLength(1);
    expect((await events(bed, NS, 'later')).filter((e) => e.reason === 'ResyncRepaired')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /1h expiry warning is due and not delivered to ops; its job had ended without delivering it/,
        ),
      }),
    ]);

    expect((await bed.system.resync!.runOnce('again'))?.repairs).toEqual({});
    expect(accepted).toHaveLength(1);
  }, 120_000);

  it('an endpoint added while a warning is due gets that warning, once, and the others nothing again', async () => {
    const hook = await bed.app.inject({
      method: 'PUT',
      url: '/v1/webhooks/audit',
      payload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/audit` },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await bed.system.store.waitFor('WebhookEndpoint', { hub: HUB, namespace: 'beekeeper', name: 'audit' }, (o) => o, {
      timeoutMs: 10_000,
    });
    expect((await bed.system.resync!.runOnce('new-endpoint'))?.repairs).toEqual({ warning: 1 });
    await arrived(2);
    expect(accepted.map((a) => `${a.path}:${a.cluster.name}:${a.lead}`)).toEqual(['/:later:1h', '/audit:later:1h']);
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'later' },
      (o) =>
        JSON.parse(o?.metadata.annotations?.['beekeeper.io/expiry-warnings'] ?? '{}').sent?.['1h']?.audit
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    expect((await bed.system.resync!.runOnce('after-new-endpoint'))?.repairs).toEqual({});
    expect(accepted).toHaveLength(2);
  }, 60_000);
});
