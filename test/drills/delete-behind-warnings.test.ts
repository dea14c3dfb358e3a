// Drill (issue 9, "Priorities"): 1,000 clusters' expiry warnings are queued for a slow webhook receiver when a user
// deletes a cluster. The delete must start at once, not behind the warnings (with one queue of 20 slots per hub it
// waited until nearly every warning had gone out), and every warning must still be delivered exactly once.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { adoptClusters } from './clusters.js';
import { report, scaled, startDrill, tally, until, type Drill } from './harness.js';

/**
 * 1,000 full size, at least 250: behind 250 warnings in one queue of 20 slots, the delete would still start only
 * after ~230 of them (the bound below is half).
 */
const WARNINGS = scaled(1000, 250);
/** A slow receiver (a chat service under load): each warning holds a worker slot this long. */
const RECEIVER_MS = 300;
const NS = 'expiring';
const names = Array.from({ length: WARNINGS }, (_, i) => `exp-${String(i).padStart(4, '0')}`);

let drill: Drill;
let receiver: Server;
/** The cluster each delivery was about, in arrival order. */
const delivered: string[] = [];
let allDelivered!: () => void;
const everyWarningDelivered = new Promise<void>((resolve) => (allDelivered = resolve));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      setTimeout(() => {
        delivered.push(String((JSON.parse(body) as { cluster?: { name?: string } }).cluster?.name));
        res.writeHead(204).end();
        if (new Set(delivered).size >= WARNINGS) allDelivered();
      }, RECEIVER_MS);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));

  // The scheduler starts once the clusters exist, so it queues every warning at once. The hub's request budget is
  // raised (as in bench/): the drill is about worker slots, and 1,000 warnings at 20 QPS would take minutes.
  drill = await startDrill({
    roles: { scheduler: 0 },
    env: { BEEKEEPER_KUBE_QPS: '1000', BEEKEEPER_KUBE_BURST: '2000', BEEKEEPER_JOB_KEEP_COMPLETED_COUNT: '5000' },
  });
  const put = await drill.api('PUT', '/v1/webhooks/chat', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  });
  expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  // Expiring in an hour with a warning an hour ahead: every warning is due the moment its cluster exists.
  const policy = await drill.api('POST', '/v1/expiry-policies', {
    name: 'expiring',
    selector: { namespaces: [NS] },
    warnings: ['1h'],
  });
  expect(policy.status, JSON.stringify(policy.body)).toBeLessThan(300);
  await adoptClusters(drill.kube(), NS, names, { annotations: { 'hive.openshift.io/delete-after': '1h' } });
  await adoptClusters(drill.kube(), 'team-web', ['web-1']);
}, 300_000);

afterAll(async () => {
  await drill?.close();
  await new Promise((r) => receiver?.close(r));
});

async function allWarnJobs(): Promise<JobView[]> {
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await drill.api<{ items: JobView[] }>('GET', `/v1/jobs?type=expiry.warn&limit=500&offset=${offset}`);
    out.push(...page.body.items);
    if (page.body.items.length < 500) return out;
  }
}

describe(`drill: a user deletes a cluster while ${WARNINGS} warnings are queued`, () => {
  it('starts the delete within seconds, long before the warnings are done, and delivers every warning exactly once', async () => {
    await drill.start('scheduler');
    // Read from the jobs API, not from /metrics: the job gauges are refreshed every 15 s (no Redis call per scrape), and
    // by then a slow receiver's 20 slots would have taken most of the warnings.
    await until(`${WARNINGS} warning jobs are queued`, async () => (await allWarnJobs()).length >= WARNINGS, 120_000);

    const asked = Date.now();
    const res = await drill.api<{ job: JobView }>('DELETE', '/v1/clusters/east/team-web/web-1');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await drill.api<{ job: JobView }>('GET', `/v1/jobs/${res.body.job.id}?wait=600`);
    const del = done.body.job;
    expect(del.state, JSON.stringify(del)).toBe('completed');
    const startedMs = Date.parse(del.startedAt!);

    await everyWarningDelivered;
    // A job records its delivery on the cluster after the receiver answers: wait for the last ones to end.
    let warns: JobView[] = [];
    await until(
      'every warning job has ended',
      async () => (warns = await allWarnJobs()).every((w) => w.finishedAt),
      120_000,
    );
    const startedBefore = warns.filter((w) => w.startedAt && Date.parse(w.startedAt) < startedMs).length;
    const lastWarning = Math.max(...warns.map((w) => Date.parse(w.finishedAt ?? w.startedAt ?? w.createdAt)));
    console.log(
      `drill: the delete started ${startedMs - asked} ms after it was asked for; ${startedBefore} of ${warns.length} warning jobs had started by then; ` +
        `the last warning finished ${lastWarning - startedMs} ms after the delete started`,
    );
    // A generous bound, not a timing: the delete did not queue behind the warnings (it started before half of them).
    expect(startedBefore).toBeLessThan(WARNINGS / 2);

    // Every warning went out exactly once: one Event per cluster on the hub, one delivery per cluster at the receiver.
    const events = tally(names, await drill.eventsFor(NS, 'ExpiryWarning'));
    const deliveries = tally(names, delivered);
    report('delete-behind-warnings (deliveries)', deliveries);
    expect(events, JSON.stringify(events.examples)).toMatchObject({
      expected: WARNINGS,
      done: WARNINGS,
      duplicated: 0,
      lost: 0,
      unexpected: 0,
    });
    expect(deliveries, JSON.stringify(deliveries.examples)).toMatchObject({
      expected: WARNINGS,
      done: WARNINGS,
      duplicated: 0,
      lost: 0,
      unexpected: 0,
    });
    expect(warns.filter((w) => w.state !== 'completed')).toEqual([]);
  }, 900_000);
});
