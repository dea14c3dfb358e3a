// Drill (issue 14, "Simulator faults at 10 %"): once the stage is set, one request in ten to the hub fails (500,
// 503 with Retry-After, 429 with Retry-After), one ClusterDeployment or ClusterClaim write in ten answers 409
// Conflict, and watch streams drop about every ten seconds; meanwhile Beekeeper runs a schedule's sweep, hibernates
// clusters one by one, and takes claims and cluster creates from callers that retry a 429/5xx with the same
// Idempotency-Key, as a well-behaved client does. Every operation completes, every cluster changes power once, no
// claim or cluster is created twice (counted by watches on the hub) and no job is left active or waiting.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import type { FaultSpec } from '../../src/sim/apiserver/index.js';
import { R } from '../../src/sim/client/index.js';
import { adoptClusters, createInstallInputs } from './clusters.js';
import { report, retryUntilSeen, scaled, startDrill, tally, until, type ApiAnswer, type Drill } from './harness.js';
import { watchPowerChanges, type PowerChanges } from './power-changes.js';
import { CLEAN, figures } from './queued-hibernates.js';
import { watchCreations, type Creations } from './relocations.js';
import { mapLimit } from '../../src/map-limit.js';

/** Clusters the sweep hibernates: 200 full size, at least 40 (still hundreds of requests, so dozens fail). */
const SWEPT = scaled(200, 40);
/** Clusters hibernated one request each, claims and cluster creates. */
const HIBERNATED = scaled(40, 10);
const CLAIMS = scaled(12, 4);
const CREATES = scaled(12, 4);

/** About 10 % of every request fails (the three rules roll separately), 10 % of the watched kinds' writes conflict. */
const TEN_PERCENT: FaultSpec = {
  errors: [
    { rate: 0.04, code: 500 },
    { rate: 0.03, code: 503, retryAfterSeconds: 1 },
    { rate: 0.03, code: 429, retryAfterSeconds: 1 },
  ],
  conflicts: [
    { resource: 'clusterdeployments', rate: 0.1 },
    { resource: 'clusterclaims', rate: 0.1 },
  ],
  watchDrops: { ratePerSecond: 0.1 },
};

const SWEEP_NS = 'swept';
const ONE_NS = 'one-by-one';
const CI = 'ci';
const named = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
const swept = named(SWEEP_NS, SWEPT);
const single = named(ONE_NS, HIBERNATED);
const claims = named('claim', CLAIMS);
const creates = named('made', CREATES);

let drill: Drill;
let power: PowerChanges;
let powerOne: PowerChanges;
let claimed: Creations;
let created: Creations;

beforeAll(async () => {
  drill = await startDrill({
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '5', BEEKEEPER_KUBE_QPS: '1000', BEEKEEPER_KUBE_BURST: '2000' },
  });
  const kube = drill.kube();
  await Promise.all([adoptClusters(kube, SWEEP_NS, swept), adoptClusters(kube, ONE_NS, single)]);
  await createInstallInputs(kube, CI);
  power = watchPowerChanges(kube, SWEEP_NS);
  powerOne = watchPowerChanges(kube, ONE_NS);
  claimed = watchCreations(kube, R.clusterClaim, CI);
  created = watchCreations(kube, R.clusterDeployment, CI);
  const pool = await retryUntilSeen(() =>
    drill.api('POST', '/v1/pools', {
      hub: 'east',
      namespace: CI,
      name: 'builds',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size: CLAIMS,
      runningCount: CLAIMS,
    }),
  );
  expect(pool.status, JSON.stringify(pool.body)).toBe(201);
  await until(
    'every cluster reports Running and the pool is ready',
    async () =>
      [...swept.map(power.now), ...single.map(powerOne.now)].every((s) => s === 'Running') &&
      (await kube.get(R.clusterPool, CI, 'builds')).status?.ready === CLAIMS,
    120_000,
  );
}, 240_000);

afterAll(async () => {
  for (const w of [power, powerOne, claimed, created]) w?.stop();
  await drill?.close();
});

/**
 * A caller that retries what the server asks it to (429 and 5xx, and a connection that failed) with the same
 * Idempotency-Key, honouring Retry-After, for up to a minute: what a CI job or a script does.
 */
async function send<T>(method: string, path: string, key: string, body?: unknown): Promise<ApiAnswer<T>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await drill
      .api<T>(method, path, body, { 'idempotency-key': key })
      .catch(() => ({ status: 0, headers: new Headers(), body: undefined as T }));
    // A 404 is the api's informer not yet seeing what the drill wrote, which a watch drop can delay.
    const again = res.status === 0 || res.status === 404 || res.status === 429 || res.status >= 500;
    if (!again || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 1000 * Math.min(5, Number(res.headers.get('retry-after') ?? 0.5))));
  }
}

/** The drill's own reads of the hub fail one time in ten too. */
async function read<T>(what: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await what();
    } catch (err) {
      if (i >= 20) throw err;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

const assigned = async (name: string) =>
  Boolean(
    (await read(() => drill.kube().tryGet(R.clusterClaim, CI, name)))?.status?.conditions?.some(
      (c: { type: string; status: string }) => c.type === 'Pending' && c.status === 'False',
    ),
  );

describe(`drill: 10 % simulator faults during a sweep of ${SWEPT}, ${HIBERNATED} hibernates, ${CLAIMS} claims and ${CREATES} creates`, () => {
  it('completes every operation, duplicates no object and leaves no job stuck', async () => {
    // A schedule whose hibernate edge has passed today (so a run now hibernates) and whose resume is hours away.
    const now = new Date();
    const edge = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 5 * 60_000);
    const resume = new Date(edge.getTime() + 12 * 3_600_000);
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

    await drill.faults(TEN_PERCENT);
    const started = Date.now();
    const jobs = new Map<string, string>();
    const answers: number[] = [];
    const accepted = (what: string, res: ApiAnswer<{ job?: JobView; id?: string }>, want: number) => {
      answers.push(res.status);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(want);
      if (res.body?.job) jobs.set(what, res.body.job.id);
    };
    await Promise.all([
      send<{ job: JobView }>('POST', '/v1/schedules/nightly/run', 'run-nightly').then((res) =>
        accepted('sweep', res, 202),
      ),
      mapLimit(single, 8, async (name) =>
        accepted(name, await send('POST', `/v1/clusters/east/${ONE_NS}/${name}/hibernate`, `hibernate-${name}`), 202),
      ),
      mapLimit(claims, 4, async (name) =>
        accepted(
          name,
          await send('POST', '/v1/claims', `claim-${name}`, { pool: `east/${CI}/builds`, name, lifetime: '2h' }),
          201,
        ),
      ),
      mapLimit(creates, 4, async (name) =>
        accepted(
          name,
          await send('POST', '/v1/clusters', `create-${name}`, {
            hub: 'east',
            namespace: CI,
            name,
            baseDomain: 'example.com',
            platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
            imageSet: 'openshift-v4.16.3',
            pullSecretRef: 'pull-secret',
          }),
          202,
        ),
      ),
    ]);

    // Every job the callers were given ends completed (followed through the API, which faults do not touch).
    const open = new Map(jobs);
    const failed: string[] = [];
    const lastAnswer = new Map<string, string>();
    await until(
      `the ${jobs.size} jobs end`,
      async () => {
        await mapLimit([...open], 10, async ([what, id]) => {
          const res = await drill.api<{ job: JobView }>('GET', `/v1/jobs/${id}?wait=2`);
          const job = res.body?.job;
          // The state, attempts and last steps: what a job that never ends was doing (printed below).
          lastAnswer.set(
            what,
            job
              ? `${id}: ${job.state}, attempt ${job.attempts}, steps ${JSON.stringify(job.steps.slice(-3))}`
              : `${id}: ${res.status} ${JSON.stringify(res.body)}`,
          );
          if (res.status !== 200) return;
          if (res.body.job.state === 'completed') open.delete(what);
          if (res.body.job.state === 'failed') {
            failed.push(`${what}: ${res.body.job.error?.message ?? JSON.stringify(res.body.job.error)}`);
            open.delete(what);
          }
        });
        return open.size === 0;
      },
      120_000,
    ).catch(async (err: Error) => {
      // Everything there is to know about each open job, since the drill's logs go with it: its view, the object on
      // the hub and the roles' log lines about it.
      const about = await Promise.all(
        [...open].map(async ([what, id]) => {
          const ns = creates.includes(what) || claims.includes(what) ? CI : single.includes(what) ? ONE_NS : '';
          const kind = claims.includes(what) ? R.clusterClaim : R.clusterDeployment;
          const obj = ns ? await read(() => drill.kube().tryGet(kind, ns, what)).catch(String) : undefined;
          const hub = obj && typeof obj === 'object' ? { spec: obj.spec, status: obj.status } : obj;
          return [
            `${what} (${lastAnswer.get(what)})`,
            `  on the hub: ${JSON.stringify(hub)}`,
            ...drill.logsAbout(id, 15).map((l) => `  ${l}`),
          ].join('\n');
        }),
      );
      throw new Error(`${err.message}; still open:\n${about.join('\n')}`);
    });
    await until(
      'every claim has a cluster and every cluster is Hibernating',
      async () =>
        swept.every((n) => power.now(n) === 'Hibernating') &&
        single.every((n) => powerOne.now(n) === 'Hibernating') &&
        (await Promise.all(claims.map(assigned))).every(Boolean),
      120_000,
    );
    const doneMs = Date.now() - started;
    // Nothing active or waiting: no job retrying forever, none abandoned by a worker that lost a race.
    let stuck: JobView[] = [];
    await until(
      'no job is active or waiting',
      async () => {
        const [active, waiting] = await Promise.all(
          ['active', 'waiting'].map(
            async (s) => (await drill.api<{ items: JobView[] }>('GET', `/v1/jobs?state=${s}&limit=100`)).body.items,
          ),
        );
        stuck = [...active!, ...waiting!];
        return stuck.length === 0;
      },
      60_000,
    ).catch(() => undefined);
    await drill.faults(undefined);

    // One key per object created (a uid seen in an ADDED event) and not deleted again: a claim or cluster made twice
    // is a duplicate. A create whose later write the hub failed is rolled back (the API answers 503 and leaves
    // nothing, docs/clusters.md), and the caller's retry creates it again: the rolled-back uid is counted apart.
    const alive = (w: typeof created, k: string) => [...w.uids(k)].filter((uid) => !w.deleted(k).has(uid));
    const rolledBack = [claimed, created].reduce((n, w) => n + w.keys().reduce((m, k) => m + w.deleted(k).size, 0), 0);
    const made = [
      ...claimed.keys().flatMap((k) => alive(claimed, k).map(() => `claim/${k.split('/')[1]}`)),
      ...created.keys().flatMap((k) => alive(created, k).map(() => `cluster/${k.split('/')[1]}`)),
    ];
    const wanted = [...claims.map((n) => `claim/${n}`), ...creates.map((n) => `cluster/${n}`)];
    const sweep = tally(swept, power.asked('Hibernating'));
    const hibernates = tally(single, powerOne.asked('Hibernating'));
    const objects = tally(wanted, made);
    const all = tally(
      [...swept, ...single, ...wanted],
      [...power.asked('Hibernating'), ...powerOne.asked('Hibernating'), ...made],
    );
    report('faults-10pct', all);
    console.log(
      `drill faults-10pct: ${figures(all)} (sweep ${figures(sweep)}, hibernates ${figures(hibernates)}, claims and creates ${figures(objects)}); ` +
        `answers ${JSON.stringify(countBy(answers.map(String)))}; ${jobs.size} jobs, failed ${failed.length}; all done ${doneMs} ms after faults began; ` +
        `stuck jobs ${stuck.length}; creates rolled back and made again ${rolledBack}`,
    );
    expect(failed).toEqual([]);
    expect(sweep, JSON.stringify(sweep.examples)).toMatchObject({ expected: SWEPT, done: SWEPT, ...CLEAN });
    expect(hibernates, JSON.stringify(hibernates.examples)).toMatchObject({
      expected: HIBERNATED,
      done: HIBERNATED,
      ...CLEAN,
    });
    expect(objects, JSON.stringify(objects.examples)).toMatchObject({
      expected: CLAIMS + CREATES,
      done: CLAIMS + CREATES,
      ...CLEAN,
    });
    expect(stuck.map((j) => `${j.type} ${j.id} ${j.state}`)).toEqual([]);
  }, 600_000);
});

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}
