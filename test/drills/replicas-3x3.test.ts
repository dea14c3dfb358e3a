// Drill (issue 14, "Three scheduler and three worker processes on one Redis: zero duplicate actions"): three
// scheduler and three worker processes (and an api) share one Redis while a schedule's hibernate edge falls due over
// hundreds of clusters, expiry warnings fall due for a hundred others, claims' heartbeats lapse, and callers
// hibernate clusters one by one. Every scheduler sees every edge, warning and lapse; every worker takes jobs. Each
// action still happens exactly once: counted by watches on the hub (power changes), at the webhook receiver
// (deliveries) and from Events (releases).
// Separate OS processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { R } from '../../src/sim/client/index.js';
import { adoptClusters, createInstallInputs } from './clusters.js';
import { report, retryUntilSeen, scaled, startDrill, tally, until, type Drill, fullSetOnly } from './harness.js';
import { watchPowerChanges, type PowerChanges } from './power-changes.js';
import { CLEAN, figures } from './queued-hibernates.js';
import { mapLimit } from '../../src/map-limit.js';

/** Swept at the edge: 300 full size, at least 60 (enough that the three schedulers' sweeps would overlap). */
const SWEPT = scaled(300, 60);
/** Clusters whose 1h expiry warning is due at once; claims whose 1m heartbeat lapses; one-by-one hibernates. */
const WARNED = scaled(100, 25);
const LAPSED = scaled(8, 4);
const HIBERNATED = scaled(40, 10);
const REPLICAS = 3;

const named = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
const SWEEP_NS = 'swept';
const WARN_NS = 'expiring';
const ONE_NS = 'one-by-one';
const CI = 'ci';
const swept = named(SWEEP_NS, SWEPT);
const warned = named(WARN_NS, WARNED);
const single = named(ONE_NS, HIBERNATED);
const lapsed = named('lapsed', LAPSED);

let drill: Drill;
let receiver: Server;
/** The cluster each warning was about, once per delivery. */
const delivered: string[] = [];
let power: PowerChanges;
let powerOne: PowerChanges;

describe(`drill: ${REPLICAS} schedulers and ${REPLICAS} workers on one Redis`, fullSetOnly(), () => {
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const notice = JSON.parse(body) as { cluster?: { name?: string }; lead?: string };
        if (notice.cluster?.name) delivered.push(`${notice.cluster.name}/${notice.lead}`);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    // The schedulers start once the stage is set, so warnings and the edge meet all three at once.
    drill = await startDrill({
      roles: { scheduler: 0, worker: REPLICAS },
      env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '2', BEEKEEPER_KUBE_QPS: '1000', BEEKEEPER_KUBE_BURST: '2000' },
    });
    const kube = drill.kube();
    await Promise.all([adoptClusters(kube, SWEEP_NS, swept), adoptClusters(kube, ONE_NS, single)]);
    await createInstallInputs(kube, CI);
    power = watchPowerChanges(kube, SWEEP_NS);
    powerOne = watchPowerChanges(kube, ONE_NS);
    const hook = await drill.api('PUT', '/v1/webhooks/chat', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    });
    expect(hook.status, JSON.stringify(hook.body)).toBeLessThan(300);
    const policy = await drill.api('POST', '/v1/expiry-policies', {
      name: 'expiring',
      selector: { namespaces: [WARN_NS] },
      warnings: ['1h'],
    });
    expect(policy.status, JSON.stringify(policy.body)).toBeLessThan(300);
    const pool = await retryUntilSeen(() =>
      drill.api('POST', '/v1/pools', {
        hub: 'east',
        namespace: CI,
        name: 'builds',
        platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
        baseDomain: 'ci.example.com',
        imageSetName: 'openshift-v4.16.3',
        pullSecretRef: 'pull-secret',
        size: LAPSED,
        runningCount: LAPSED,
      }),
    );
    expect(pool.status, JSON.stringify(pool.body)).toBe(201);
    await until(
      'every cluster reports Running and the pool is ready',
      async () =>
        [...swept.map(power.now), ...single.map(powerOne.now)].every((s) => s === 'Running') &&
        (await kube.get(R.clusterPool, CI, 'builds')).status?.ready === LAPSED,
      120_000,
    );
    // Their holders never heartbeat: the minute (the shortest timeout) runs while the stage is set and the edge nears.
    for (const name of lapsed) {
      const res = await drill.api('POST', '/v1/claims', {
        pool: `east/${CI}/builds`,
        name,
        lifetime: '4h',
        heartbeatTimeout: '1m',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 300_000);

  afterAll(async () => {
    power?.stop();
    powerOne?.stop();
    await drill?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('act once on each edge, warning, lapsed heartbeat and hibernate', async () => {
    // Schedules have whole-minute edges, and an edge from before the schedule existed is never acted on: the next
    // minute at least 5 s away, in UTC; the resume edge half a day later.
    const edgeMs = Math.ceil((Date.now() + 5_000) / 60_000) * 60_000;
    const edge = new Date(edgeMs);
    const resume = new Date(edgeMs + 12 * 3_600_000);
    const schedule = await drill.api('POST', '/v1/schedules', {
      name: 'nightly',
      timeZone: 'UTC',
      cron: {
        hibernate: `${edge.getUTCMinutes()} ${edge.getUTCHours()} * * *`,
        resume: `${resume.getUTCMinutes()} ${resume.getUTCHours()} * * *`,
      },
      targets: { namespaces: [SWEEP_NS] },
      safety: { allowHibernationInFirstDay: { reason: 'drill clusters, no certificates to rotate' } },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    const schedulers = await Promise.all(Array.from({ length: REPLICAS }, () => drill.start('scheduler')));
    // Expiring in an hour with a warning an hour ahead: each warning is due the moment its cluster exists.
    await adoptClusters(drill.kube(), WARN_NS, warned, { annotations: { 'hive.openshift.io/delete-after': '1h' } });
    const jobs: string[] = [];
    await mapLimit(single, 8, async (name) => {
      const res = await retryUntilSeen(() =>
        drill.api<{ job: JobView }>('POST', `/v1/clusters/east/${ONE_NS}/${name}/hibernate`),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      jobs.push(res.body.job.id);
    });

    await until(
      'the edge is swept, every warning delivered, every lapsed claim released and every hibernate done',
      async () =>
        swept.every((n) => power.now(n) === 'Hibernating') &&
        single.every((n) => powerOne.now(n) === 'Hibernating') &&
        new Set(delivered).size >= WARNED &&
        (await drill.eventsFor(CI, 'ClaimReleased')).length >= LAPSED,
      edgeMs - Date.now() + 120_000,
    );
    const doneAfterEdgeMs = Date.now() - edgeMs;
    // A second action would come within a resync or two of the first.
    await new Promise((r) => setTimeout(r, 6_000));

    const sweep = tally(swept, power.asked('Hibernating'));
    const hibernates = tally(single, powerOne.asked('Hibernating'));
    const warnings = tally(
      warned.map((n) => `${n}/1h`),
      delivered,
    );
    const warningEvents = tally(warned, await drill.eventsFor(WARN_NS, 'ExpiryWarning'));
    const releases = tally(lapsed, await drill.eventsFor(CI, 'ClaimReleased'));
    const all = tally(
      [...swept, ...single, ...warned.map((n) => `${n}/1h`), ...lapsed],
      [
        ...power.asked('Hibernating'),
        ...powerOne.asked('Hibernating'),
        ...delivered,
        ...(await drill.eventsFor(CI, 'ClaimReleased')),
      ],
    );
    // Every process took part: each worker ran jobs, each scheduler is still up.
    const ran = await Promise.all(
      drill.roles
        .filter((r) => r.role === 'worker')
        .map(async (w) =>
          [...(await drill.metrics(w))]
            .filter(([k]) => k.startsWith('beekeeper_jobs_finished_total'))
            .reduce((n, [, v]) => n + v, 0),
        ),
    );
    report('replicas-3x3', all);
    console.log(
      `drill replicas-3x3: ${figures(all)} (edge sweep ${figures(sweep)}, hibernates ${figures(hibernates)}, ` +
        `warnings ${figures(warnings)} with Events ${figures(warningEvents)}, releases ${figures(releases)}); ` +
        `all done ${doneAfterEdgeMs} ms after the edge; jobs per worker ${JSON.stringify(ran)}`,
    );
    expect(sweep, JSON.stringify(sweep.examples)).toMatchObject({ expected: SWEPT, done: SWEPT, ...CLEAN });
    expect(hibernates, JSON.stringify(hibernates.examples)).toMatchObject({
      expected: HIBERNATED,
      done: HIBERNATED,
      ...CLEAN,
    });
    expect(warnings, JSON.stringify(warnings.examples)).toMatchObject({ expected: WARNED, done: WARNED, ...CLEAN });
    expect(warningEvents, JSON.stringify(warningEvents.examples)).toMatchObject({
      expected: WARNED,
      done: WARNED,
      ...CLEAN,
    });
    expect(releases, JSON.stringify(releases.examples)).toMatchObject({ expected: LAPSED, done: LAPSED, ...CLEAN });
    expect(schedulers.every((s) => s.running())).toBe(true);
    expect(drill.roles.filter((r) => r.role === 'worker' && r.running())).toHaveLength(REPLICAS);
  }, 600_000);
});
