// Drill (issue 14, "SIGTERM to every role with work in flight: finished or handed back, nothing lost, exit within
// the grace period"): a manual sweep of a schedule, a batch of hibernates and CI claims from a hibernated pool are
// under way when the worker, the scheduler and the api get SIGTERM at once (a node drain, an upgrade of the whole
// deployment), each replaced by a new process once it has exited (one replica of each, the hard case: nobody holds
// the work meanwhile, and CI clients retry through the gap as they would against a Service with no endpoint). Each
// exits by itself (code 0) within the deploy manifests' terminationGracePeriodSeconds (45 s), with the production
// shutdown grace for active jobs (20 s); every cluster hibernates once (a watch on the hub), every claim gets one
// cluster, every job completes.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/system.js';
import type { JobView } from '../../src/services/ports.js';
import { ciRun, apiRetrying, hibernatedPool, watchAssignments, type CiRun } from './claims.js';
import { adoptClusters } from './clusters.js';
import { scaled, startDrill, tally, until, type Drill, type Tally } from './harness.js';
import { untilJobsCompleted } from './jobs.js';
import { mapLimit } from '../../src/map-limit.js';
import { counts, CRASH_ENV, hibernatedNow, jobsOf, openJobs, reportDrill } from './kill-drills.js';
import { watchPowerChanges, type PowerChanges } from './power-changes.js';
import { CLEAN } from './queued-hibernates.js';

/**
 * Full size: a sweep of 200, 100 hibernates, 20 claims; at least 100, 25 and 8 (a sweep of 50 at the budget below
 * could be over before the signals: its patches take a fraction of what its Events and the other work do).
 */
const SWEPT = scaled(200, 100);
const HIBERNATED = scaled(100, 25);
const CLAIMS = scaled(20, 8);
const GRACE_MS = 45_000; // deploy/base/*.yaml terminationGracePeriodSeconds
const names = (ns: string, n: number) => Array.from({ length: n }, (_, i) => `${ns}-${String(i).padStart(3, '0')}`);
const swept = names('tsweep', SWEPT);
const hibernated = names('thib', HIBERNATED);
const claims = Array.from({ length: CLAIMS }, (_, i) => `ci-${String(i).padStart(3, '0')}`);
/** The hub budget (an optional cap): 20 requests a second, so the work is still in flight when the signals come. */
const SLOW = { BEEKEEPER_KUBE_QPS: '20', BEEKEEPER_KUBE_BURST: '20' };
let drill: Drill;
let power: { swept: PowerChanges; hibernated: PowerChanges };
let pool: string;

beforeAll(async () => {
  // The production shutdown grace (20 s, not CRASH_ENV's 0): active jobs may finish before they are handed back.
  drill = await startDrill({ env: { ...CRASH_ENV, ...SLOW, BEEKEEPER_SHUTDOWN_GRACE_MS: '20000' } });
  await Promise.all([
    adoptClusters(drill.kube(), 'tsweep', swept),
    adoptClusters(drill.kube(), 'thib', hibernated),
    (async () => (pool = await hibernatedPool(drill, 'tclaims', 'builds', CLAIMS)))(),
  ]);
  power = { swept: watchPowerChanges(drill.kube(), 'tsweep'), hibernated: watchPowerChanges(drill.kube(), 'thib') };
  await until(
    'all clusters report Running',
    () =>
      swept.every((n) => power.swept.now(n) === 'Running') &&
      hibernated.every((n) => power.hibernated.now(n) === 'Running'),
    90_000,
  );
  await hibernatedNow(drill, 'nightly', ['tsweep']);
}, 240_000);

afterAll(async () => {
  power?.swept.stop();
  power?.hibernated.stop();
  await drill?.close();
});

describe('drill: SIGTERM to the worker, the scheduler and the api with a sweep, hibernates and claims in flight', () => {
  it('each exits within its grace period; everything finishes or is handed back and finished, once', async () => {
    const assignments = watchAssignments(drill.kube(), 'tclaims');
    try {
      // The work: hibernates, a manual sweep, CI jobs claiming (4 at a time, so claims are still waiting later).
      // The sweep is asked for after the hibernates: on a loaded machine asking for 25 hibernates took long enough
      // for a sweep asked first to finish before the signals, with nothing of it left in flight.
      const jobIds = new Map<string, string>();
      await mapLimit(hibernated, 20, async (name) => {
        const res = await apiRetrying<{ job: JobView }>(drill, 'POST', `/v1/clusters/east/thib/${name}/hibernate`);
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        jobIds.set(name, res.body.job.id);
      });
      const run = await drill.api<{ job: JobView }>('POST', '/v1/schedules/nightly/run');
      expect(run.status, JSON.stringify(run.body)).toBe(202);
      jobIds.set('sweep', run.body.job.id);
      const runs: CiRun[] = [];
      let claiming = 0;
      // The CI jobs' tests run until the signals are sent, as a real suite takes minutes: on a fast machine the
      // claims were all served and released before the sweep was under way, with none of them left in flight.
      let signalled!: () => void;
      const testsRun = new Promise<void>((r) => (signalled = r));
      const ci = mapLimit(claims, 4, async (claim) => {
        claiming++;
        runs.push(await ciRun(drill, pool, 'tclaims', claim, testsRun));
        claiming--;
      });

      // SIGTERM to every role at once, as a node drain or an upgrade of the whole deployment does, with the sweep
      // under way, hibernates followed and CI jobs claiming; replacements once they have exited.
      const sweptAsked = () => new Set(power.swept.asked('Hibernating')).size;
      await until('the sweep is under way', () => sweptAsked() >= Math.max(5, SWEPT / 10), 60_000);
      const inFlight = {
        sweepAsked: sweptAsked(),
        hibernated: new Set(power.hibernated.reached('Hibernating')).size,
        ciDone: runs.length,
        ciRunning: claiming,
      };
      const exits: Record<string, { ms: number; code: number | null; signal: string | null }> = {};
      await Promise.all(
        (['worker', 'scheduler', 'api'] as const).map(async (role: Role) => {
          const proc = drill.roles.find((r) => r.role === role && r.running())!;
          const t0 = Date.now();
          const exiting = proc.kill('SIGTERM');
          // The first CI jobs release their claims and the next ones claim through the gap, retrying.
          signalled();
          const exit = await Promise.race([
            exiting,
            new Promise<undefined>((r) => setTimeout(() => r(undefined), GRACE_MS).unref()),
          ]);
          exits[role] = { ms: Date.now() - t0, code: exit?.code ?? null, signal: exit?.signal ?? null };
          expect(exit, `${role} still running ${GRACE_MS} ms after SIGTERM: ${proc.tail()}`).toBeDefined();
        }),
      );
      await Promise.all((['worker', 'scheduler', 'api'] as const).map((role) => drill.start(role)));
      await ci;

      // Every job ends completed: the sweep, each hibernate, each release.
      for (const r of runs) jobIds.set(r.claim, r.releaseJob);
      await untilJobsCompleted(drill, jobIds.values(), {
        concurrency: 16,
        timeoutMs: 120_000,
        get: (path) => apiRetrying(drill, 'GET', path),
      });
      await until(
        'every cluster reports Hibernating',
        () =>
          swept.every((n) => power.swept.now(n) === 'Hibernating') &&
          hibernated.every((n) => power.hibernated.now(n) === 'Hibernating'),
        60_000,
      ).catch(() => undefined);
      const left = await openJobs(drill, (j) => ['tsweep', 'thib', 'tclaims'].includes(j.target?.namespace ?? ''));

      const parts: Record<string, Tally> = {
        sweep: tally(swept, power.swept.reached('Hibernating')),
        sweepAsked: tally(swept, power.swept.asked('Hibernating')),
        hibernates: tally(hibernated, power.hibernated.reached('Hibernating')),
        hibernatesAsked: tally(hibernated, power.hibernated.asked('Hibernating')),
        claims: tally(claims, assignments.served()),
      };
      // The drill's tally: every action it expected (a cluster hibernated, a claim served), by kind.
      const all = tally(
        [...swept.map((n) => `sweep/${n}`), ...hibernated.map((n) => `hib/${n}`), ...claims.map((n) => `claim/${n}`)],
        [
          ...power.swept.reached('Hibernating').map((n) => `sweep/${n}`),
          ...power.hibernated.reached('Hibernating').map((n) => `hib/${n}`),
          ...assignments.served().map((n) => `claim/${n}`),
        ],
      );
      reportDrill('sigterm-every-role', all, {
        parts: Object.fromEntries(Object.entries(parts).map(([k, t]) => [k, counts(t)])),
        atSigterm: inFlight,
        exits,
        clustersGivenTwice: assignments.givenTwice().length,
      });
      // The positive control: work was in flight for every role.
      expect(inFlight.sweepAsked).toBeLessThan(SWEPT);
      expect(inFlight.ciDone).toBeLessThan(CLAIMS);
      expect(inFlight.ciRunning).toBeGreaterThan(0);
      for (const role of ['worker', 'scheduler', 'api']) expect(exits[role], role).toMatchObject({ code: 0 });
      for (const [part, t] of Object.entries(parts))
        expect(t, `${part}: ${JSON.stringify(t.examples)}`).toMatchObject(CLEAN);
      expect(all, JSON.stringify(all.examples)).toMatchObject({ expected: all.expected, done: all.expected, ...CLEAN });
      expect(assignments.givenTwice()).toEqual([]);
      expect(jobsOf(left)).toEqual([]);
    } finally {
      assignments.stop();
    }
  }, 300_000);
});
