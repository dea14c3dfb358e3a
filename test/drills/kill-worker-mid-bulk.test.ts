// Drill (issue 14, "SIGKILL a worker ... mid-bulk power operation: every cluster acted on exactly once, nothing
// stuck"): 200 hibernates accepted through the API (202, one job each) while a worker follows them; when some jobs
// have completed and others not, the worker is killed with SIGKILL and a new one started. Its jobs go back to the
// queue once their lock lapses (2 s here): each cluster hibernates exactly once (a watch on the hub), every job id
// answers and completes, one Operation per request ends Succeeded, one `Hibernated` Event per cluster.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { adoptRunning } from './clusters.js';
import {
  retryUntilSeen,
  scaled,
  startDrill,
  STATE_NS,
  tally,
  until,
  type Drill,
  type Tally,
  fullSetOnly,
} from './harness.js';
import { untilJobsCompleted } from './jobs.js';
import { mapLimit } from '../../src/map-limit.js';
import { counts, CRASH_ENV, jobsOf, openJobs, reportDrill } from './kill-drills.js';
import type { PowerChanges } from './power-changes.js';
import { CLEAN, OPERATIONS } from './queued-hibernates.js';

/** 200 clusters full size, at least 50: the kill lands with jobs completed behind it and others ahead. */
const N = scaled(200, 50);
const NS = 'kbulk';
const names = Array.from({ length: N }, (_, i) => `${NS}-${String(i).padStart(3, '0')}`);
/** The worker's hub budget (an optional cap): 40 requests a second, so following N hibernates takes seconds. */
const SLOW_WORKER = { BEEKEEPER_KUBE_QPS: '40', BEEKEEPER_KUBE_BURST: '40' };
let drill: Drill;
let power: PowerChanges;

const completedHere = async () =>
  (
    await drill.api<{ items: JobView[] }>('GET', '/v1/jobs?type=cluster.hibernate&state=completed&limit=500')
  ).body.items.filter((j) => j.target?.namespace === NS).length;

describe(`drill: the worker killed (SIGKILL) in the middle of ${N} hibernates`, fullSetOnly(), () => {
  beforeAll(async () => {
    // Real (not fake) clusters on a simulator at speed 100: Hive takes about 1.5 s through Stopping and
    // WaitingForMachinesToStop, so the kill finds hibernations in progress as well as jobs following them.
    drill = await startDrill({ roles: { worker: 0 }, env: CRASH_ENV, simSpeed: 100 });
    await drill.start('worker', SLOW_WORKER);
    power = await adoptRunning(drill, NS, names, { annotations: { 'hive.openshift.io/fake-cluster': 'false' } });
  }, 240_000);

  afterAll(async () => {
    power?.stop();
    await drill?.close();
  });

  it('a new worker finishes them: each cluster hibernated once, every job id completes', async () => {
    const ids = new Map<string, string>();
    await mapLimit(names, 20, async (name) => {
      const res = await retryUntilSeen(() =>
        drill.api<{ job: JobView }>('POST', `/v1/clusters/east/${NS}/${name}/hibernate`),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.set(name, res.body.job.id);
    });
    expect(new Set(ids.values()).size).toBe(N);

    const killAt = Math.max(5, Math.round(N / 10));
    await until(`${killAt} hibernate jobs have completed`, async () => (await completedHere()) >= killAt, 60_000);
    const worker = drill.roles.find((r) => r.role === 'worker' && r.running())!;
    expect(await worker.kill('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    const completedAtKill = await completedHere();
    const reachedAtKill = new Set(power.reached('Hibernating')).size;

    await drill.start('worker', SLOW_WORKER);
    const restarted = Date.now();
    await untilJobsCompleted(drill, ids.values(), { concurrency: 25, timeoutMs: 180_000 });
    const doneMs = Date.now() - restarted;

    // One Operation per request, each Succeeded.
    const ops = (await drill.kube().list(OPERATIONS, STATE_NS)).items.filter((o) => o.spec.target.namespace === NS);
    // Events trail the jobs by a moment: wait for the last, then count.
    let reported: Tally = tally(names, []);
    await until(
      'each cluster has its Hibernated Event',
      async () => (reported = tally(names, await drill.eventsFor(NS, 'Hibernated'))).done === N,
      30_000,
    ).catch(() => undefined);
    const left = await openJobs(drill, (j) => j.target?.namespace === NS);

    const hibernated = tally(names, power.reached('Hibernating'));
    const asked = tally(names, power.asked('Hibernating'));
    reportDrill('kill-worker-mid-bulk', hibernated, {
      asked: counts(asked),
      events: counts(reported),
      completedAtKill,
      hibernatedAtKill: reachedAtKill,
      doneMsAfterNewWorker: doneMs,
    });
    // The positive control: the kill took part of the work.
    expect(completedAtKill).toBeLessThan(N);
    expect(hibernated, JSON.stringify(hibernated.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(asked, JSON.stringify(asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(reported, JSON.stringify(reported.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(ops.map((o) => o.metadata.name).sort()).toEqual([...ids.values()].sort());
    expect(
      ops.filter((o) => o.status?.phase !== 'Succeeded').map((o) => `${o.metadata.name}: ${o.status?.phase}`),
    ).toEqual([]);
    expect(jobsOf(left)).toEqual([]);
  }, 300_000);
});
