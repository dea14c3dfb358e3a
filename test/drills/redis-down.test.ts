// Drill (issue 9, "Proof"; before it, the scheduler logged "cannot enqueue expiry job" 121 times and 112 of 120
// claims never got their warning): Redis stopped for 60 s (the suite's short form: less, see OUTAGE_MS) while claims'
// expiry warnings fall due and other claims' heartbeats lapse. Meanwhile the API answers what needs Redis with 503 problem+json and Retry-After (never 500),
// and the scheduler does not log per item. Once Redis is back, each due warning is delivered exactly once and each
// lapsed claim is released exactly once.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R } from '../../src/sim/client/index.js';
import { adoptClusters, createInstallInputs } from './clusters.js';
import { report, retryUntilSeen, scaled, startDrill, tally, until, type Drill } from './harness.js';
import { CLEAN, figures } from './queued-hibernates.js';

/**
 * How long Redis is down at least: 60 s full size. The short form's floor, 30 s, still outlasts every timeout the
 * roles meet meanwhile: the scheduler lease's 15 s term (it is lost and won back), the 10 s resync (which fails at
 * least twice), ioredis's reconnect back-off cap (5 s), the API's Retry-After (5 s) and BullMQ's 30 s stalled-job
 * check. The outage also lasts until every warning and lapse below has fallen due, MARGIN_MS before Redis is back.
 */
const OUTAGE_MS = scaled(60_000, 30_000);
/** Redis comes back no sooner than this after the last warning or lapse fell due (the scheduler meets it down). */
const MARGIN_MS = 5_000;
/** The smallest heartbeat timeout there is (1m, MIN_HEARTBEAT_TIMEOUT_MS): a lapse takes a minute from creation. */
const HEARTBEAT_MS = 60_000;
/**
 * After Hive hands a warned claim its cluster, its 1h warning falls due this much later: during the outage, which
 * starts once every warned claim has its cluster (from a pool whose clusters are ready, so they get them together).
 */
const WARN_AFTER_MS = scaled(50_000, 15_000);
const NS = 'ci';
/** Claims whose 1h warning falls due WARN_AFTER_MS after Hive hands them a cluster: during the outage. */
const WARNED = Array.from({ length: 10 }, (_, i) => `warned-${i}`);
/**
 * Claims whose holder never heartbeats: their 1m timeout lapses during the outage. Made first, from a pool of their
 * own (so they take none of the warned claims' clusters), so that the minute runs while the warned claims are set up.
 */
const LAPSED = Array.from({ length: 10 }, (_, i) => `lapsed-${i}`);

let drill: Drill;
let receiver: Server;
/** `<claim>/<lead>` per delivery. */
const delivered: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const notice = JSON.parse(body) as { claim?: { name?: string }; lead?: string };
      delivered.push(`${notice.claim?.name}/${notice.lead}`);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  drill = await startDrill({
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '10', BEEKEEPER_KUBE_QPS: '1000', BEEKEEPER_KUBE_BURST: '2000' },
  });
  const kube = drill.kube();
  await createInstallInputs(kube, NS);
  await adoptClusters(kube, 'fleet', ['spare']);
  const hook = await drill.api('PUT', '/v1/webhooks/chat', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
  });
  expect(hook.status, JSON.stringify(hook.body)).toBeLessThan(300);
  const pool = (name: string, size: number, more: Record<string, number>) =>
    retryUntilSeen(() =>
      drill.api('POST', '/v1/pools', {
        hub: 'east',
        namespace: NS,
        name,
        platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
        baseDomain: 'ci.example.com',
        imageSetName: 'openshift-v4.16.3',
        pullSecretRef: 'pull-secret',
        size,
        ...more,
      }),
    );
  const builds = await pool('builds', WARNED.length, { runningCount: WARNED.length });
  expect(builds.status, JSON.stringify(builds.body)).toBe(201);
  // The lapsed claims' pool: none kept, at most one made for them (whether they get a cluster does not matter).
  const idle = await pool('idle', 0, { maxSize: 1 });
  expect(idle.status, JSON.stringify(idle.body)).toBe(201);
}, 180_000);

afterAll(async () => {
  await drill?.close();
  await new Promise((r) => receiver?.close(r));
});

const assigned = async (name: string) => {
  const claim = await drill.kube().tryGet(R.clusterClaim, NS, name);
  return Boolean(
    claim?.status?.conditions?.some(
      (c: { type: string; status: string }) => c.type === 'Pending' && c.status === 'False',
    ),
  );
};

/** Lines a role wrote between two offsets of its log file, at level warn (40) or above. */
function complaints(logFile: string, from: number, to: number): string[] {
  const text = readFileSync(logFile).subarray(from, to).toString();
  return text.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 40;
    } catch {
      return line.trim() !== '';
    }
  });
}

describe(`drill: Redis down for ${OUTAGE_MS / 1000} s or more while warnings fall due and heartbeats lapse`, () => {
  it('answers 503 meanwhile, logs no line per item, then delivers every warning once and releases every lapsed claim once', async () => {
    const lapsedFrom = Date.now();
    for (const name of LAPSED) {
      const res = await drill.api('POST', '/v1/claims', {
        pool: `east/${NS}/idle`,
        name,
        lifetime: '4h',
        heartbeatTimeout: '1m',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    /** When the last lapsed claim's minute runs out. */
    const lapseBy = Date.now() + HEARTBEAT_MS;
    await until(
      `the pool's ${WARNED.length} clusters are ready`,
      async () => (await drill.kube().tryGet(R.clusterPool, NS, 'builds'))?.status?.ready === WARNED.length,
      120_000,
    );
    for (const name of WARNED) {
      const res = await drill.api('POST', '/v1/claims', {
        pool: `east/${NS}/builds`,
        name,
        lifetime: `1h0m${WARN_AFTER_MS / 1000}s`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await until(
      'Hive hands every warned claim a cluster',
      async () => (await Promise.all(WARNED.map(assigned))).every(Boolean),
      120_000,
    );
    /** Every warning falls due by then (each WARN_AFTER_MS after its claim got its cluster, which was before now). */
    const warnBy = Date.now() + WARN_AFTER_MS;
    const before = delivered.filter((d) => d.endsWith('/1h'));
    expect(before).toEqual([]);

    const scheduler = drill.roles.find((r) => r.role === 'scheduler')!;
    const api = drill.roles.find((r) => r.role === 'api')!;
    const logAt = (p: { logFile: string }) => statSync(p.logFile).size;
    const from = { scheduler: logAt(scheduler), api: logAt(api) };
    await drill.redis.stop();
    const down = Date.now();
    // The first lapse comes after Redis went down (else the drill would not be about a lapse during the outage).
    expect(lapsedFrom + HEARTBEAT_MS - down, 'ms from the outage to the first lapse').toBeGreaterThan(0);
    const upAt = Math.max(down + OUTAGE_MS, lapseBy + MARGIN_MS, warnBy + MARGIN_MS);

    // Meanwhile: what needs Redis is 503 problem+json with Retry-After; what Kubernetes holds still answers.
    const answers: Array<{ status: number; type: string | null; retryAfter: string | null }> = [];
    while (Date.now() < upAt) {
      for (const [method, path] of [
        ['POST', '/v1/clusters/east/fleet/spare/hibernate'],
        ['GET', '/v1/jobs'],
      ] as const) {
        const res = await drill.api(method, path);
        answers.push({
          status: res.status,
          type: res.headers.get('content-type'),
          retryAfter: res.headers.get('retry-after'),
        });
      }
      expect((await drill.api('GET', `/v1/claims/east/${NS}/${WARNED[0]}`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5_000, upAt - Date.now()))));
    }
    const outageMs = Date.now() - down;
    const during = {
      scheduler: complaints(scheduler.logFile, from.scheduler, logAt(scheduler)),
      api: complaints(api.logFile, from.api, logAt(api)),
    };
    await drill.redis.start();

    await until(
      'every warning is delivered',
      () => new Set(delivered.filter((d) => d.endsWith('/1h'))).size === WARNED.length,
      60_000,
    );
    await until(
      'every lapsed claim is released',
      async () => {
        const left = (await drill.kube().list(R.clusterClaim, NS)).items.filter(
          (c) => LAPSED.includes(c.metadata.name) && !c.metadata.deletionTimestamp,
        );
        return left.length === 0;
      },
      60_000,
    );
    const recoveredMs = Date.now() - down - outageMs;
    // A second delivery or release would come within a resync or two.
    await new Promise((r) => setTimeout(r, 12_000));

    const warnings = tally(
      WARNED.map((n) => `${n}/1h`),
      delivered.filter((d) => d.endsWith('/1h')),
    );
    const releases = tally(LAPSED, await drill.eventsFor(NS, 'ClaimReleased'));
    const both = tally(
      [...WARNED.map((n) => `${n}/1h`), ...LAPSED],
      [...delivered.filter((d) => d.endsWith('/1h')), ...(await drill.eventsFor(NS, 'ClaimReleased'))],
    );
    const perItem = [...during.scheduler, ...during.api].filter((l) =>
      [...WARNED, ...LAPSED].some((n) => l.includes(n)),
    );
    report('redis-down', both);
    console.log(
      `drill redis-down: the scheduler's lines during the outage, by message: ${JSON.stringify(countBy(during.scheduler.map(messageOf)))}`,
    );
    console.log(
      `drill redis-down: ${figures(both)} (warnings ${figures(warnings)}, releases ${figures(releases)}); during ${(outageMs / 1000).toFixed(1)} s down: ` +
        `answers ${JSON.stringify(countBy(answers.map((a) => `${a.status}`)))}, scheduler logged ${during.scheduler.length} lines at warn or above (${perItem.length} naming an item), ` +
        `api ${during.api.length}; all done ${recoveredMs} ms after Redis was back`,
    );
    expect(
      answers.filter((a) => a.status !== 503 || !a.type?.startsWith('application/problem+json') || !a.retryAfter),
    ).toEqual([]);
    // Not a line per item: the outage is reported once per kind of work it holds up (the first item may be named).
    expect(Object.values(countBy(perItem.map(messageOf))).filter((n) => n > 1)).toEqual([]);
    expect(during.scheduler.length).toBeLessThan(WARNED.length + LAPSED.length);
    expect(warnings, JSON.stringify(warnings.examples)).toMatchObject({
      expected: WARNED.length,
      done: WARNED.length,
      ...CLEAN,
    });
    expect(releases, JSON.stringify(releases.examples)).toMatchObject({
      expected: LAPSED.length,
      done: LAPSED.length,
      ...CLEAN,
    });
    // Other leads (the 24h one is moot for a claim that lives an hour) are never sent twice either.
    expect(tally([], delivered).duplicated).toBe(0);
    expect(new Set(delivered).size).toBe(delivered.length);
  }, 300_000);
});

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

function messageOf(line: string): string {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? line.slice(0, 80);
  } catch {
    return line.slice(0, 80);
  }
}
