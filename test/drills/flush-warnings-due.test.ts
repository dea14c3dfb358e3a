// Drill (issue 9, "Proof"): 100 clusters' expiry warnings fall due at once and go to a slow webhook receiver
// (1.5 s an answer, a chat service under load); FLUSHALL while they are being delivered. The scheduler's resync
// (every second here) sends again what Kubernetes does not record as delivered, and each warning reaches the
// receiver exactly once, with one ExpiryWarning Event per cluster. Then the same with 5 warnings and a receiver
// that takes 3 s: the worker has free slots, so a warning sent again runs while its first delivery is still
// waiting for the receiver's answer.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R } from '../../src/sim/client/index.js';
import { adoptClusters } from './clusters.js';
import { report, scaled, startDrill, tally, until, type Drill } from './harness.js';
import { CLEAN, figures } from './queued-hibernates.js';

/** 100 full size, at least 40: the flush comes after 20 arrived, so half are still to send (20 worker slots). */
const N = scaled(100, 40);
const RECEIVER_MS = 1500;
const NS = 'expiring';
const names = Array.from({ length: N }, (_, i) => `${NS}-${String(i).padStart(3, '0')}`);
const FEW_NS = 'few';
const FEW_MS = 3000;
const few = Array.from({ length: 5 }, (_, i) => `${FEW_NS}-${i}`);

let drill: Drill;
let receiver: Server;
/** The cluster each delivery was about, in arrival order (counted when the request arrives). */
const delivered: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const name = String((JSON.parse(body) as { cluster?: { name?: string } }).cluster?.name);
      delivered.push(name);
      setTimeout(() => res.writeHead(204).end(), name.startsWith(FEW_NS) ? FEW_MS : RECEIVER_MS);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  // The scheduler starts once the clusters exist, so every warning falls due at once.
  drill = await startDrill({
    roles: { scheduler: 0 },
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '1', BEEKEEPER_KUBE_QPS: '1000', BEEKEEPER_KUBE_BURST: '2000' },
  });
  const put = await drill.api('PUT', '/v1/webhooks/chat', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  });
  expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  // Expiring in an hour with a warning an hour ahead: each warning is due the moment its cluster exists.
  const policy = await drill.api('POST', '/v1/expiry-policies', {
    name: 'expiring',
    selector: { namespaces: [NS, FEW_NS] },
    warnings: ['1h'],
  });
  expect(policy.status, JSON.stringify(policy.body)).toBeLessThan(300);
  await adoptClusters(drill.kube(), NS, names, { annotations: { 'hive.openshift.io/delete-after': '1h' } });
}, 180_000);

afterAll(async () => {
  await drill?.close();
  await new Promise((r) => receiver?.close(r));
});

/** Clusters whose record (beekeeper.io/expiry-warnings) says the 1h warning reached the webhook. */
async function recorded(namespace = NS): Promise<number> {
  const cds = (await drill.kube().list(R.clusterDeployment, namespace)).items;
  return cds.filter((cd) => {
    const rec = cd.metadata.annotations?.['beekeeper.io/expiry-warnings'];
    return rec && JSON.parse(rec).sent?.['1h']?.chat;
  }).length;
}

describe(`drill: FLUSHALL while ${N} expiry warnings are being delivered`, () => {
  it('delivers each warning exactly once', async () => {
    await drill.start('scheduler');
    await until('the first deliveries arrive', () => delivered.length >= 20, 120_000);
    await drill.redis.flushAll();
    const atFlush = new Set(delivered).size;
    const flushed = Date.now();

    await until(`all ${N} warnings are recorded as delivered`, async () => (await recorded()) === N, 120_000);
    const doneMs = Date.now() - flushed;
    // A warning sent twice would arrive within a few resyncs and a receiver's answer: give it that long.
    await new Promise((r) => setTimeout(r, 3 * 1000 + RECEIVER_MS));

    const deliveries = tally(names, delivered);
    const events = tally(names, await drill.eventsFor(NS, 'ExpiryWarning'));
    const scheduler = drill.roles.find((r) => r.role === 'scheduler')!;
    const repairs = [...(await drill.metrics(scheduler))].filter(([k]) =>
      k.startsWith('beekeeper_resync_repairs_total'),
    );
    report('flush-warnings-due', deliveries);
    console.log(
      `drill flush-warnings-due: deliveries ${figures(deliveries)}; ExpiryWarning Events ${figures(events)}; ${atFlush} of ${N} had arrived at the flush; ` +
        `all recorded ${doneMs} ms after it; resync repairs ${JSON.stringify(Object.fromEntries(repairs))}`,
    );
    expect(atFlush).toBeLessThan(N);
    expect(deliveries, JSON.stringify(deliveries.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(events, JSON.stringify(events.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
  }, 300_000);

  it('delivers each warning exactly once when a warning sent again finds a free worker slot', async () => {
    const arrived = () => delivered.filter((d) => d.startsWith(FEW_NS));
    await adoptClusters(drill.kube(), FEW_NS, few, { annotations: { 'hive.openshift.io/delete-after': '1h' } });
    await until('the first delivery arrives', () => arrived().length >= 1, 60_000);
    await drill.redis.flushAll();
    const atFlush = new Set(arrived()).size;
    await until(
      `all ${few.length} warnings are recorded as delivered`,
      async () => (await recorded(FEW_NS)) === few.length,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 3 * 1000 + FEW_MS));

    const deliveries = tally(few, arrived());
    const events = tally(few, await drill.eventsFor(FEW_NS, 'ExpiryWarning'));
    report('flush-warnings-due (free slots)', deliveries);
    console.log(
      `drill flush-warnings-due (free slots): deliveries ${figures(deliveries)}; ExpiryWarning Events ${figures(events)}; ${atFlush} of ${few.length} had arrived at the flush`,
    );
    expect(deliveries, JSON.stringify(deliveries.examples)).toMatchObject({
      expected: few.length,
      done: few.length,
      ...CLEAN,
    });
    expect(events, JSON.stringify(events.examples)).toMatchObject({ expected: few.length, done: few.length, ...CLEAN });
  }, 120_000);
});
