// Drill (issue 14, "SIGKILL a worker ... mid-claim: every cluster acted on exactly once, nothing stuck"): CI jobs
// claim clusters from a pool of hibernated ones (claim, wait until it runs, kubeconfig, release); while claims are
// being served and released, the worker is killed with SIGKILL and a new one started. Every claim gets exactly one
// cluster (a watch on the hub's ClusterClaims), no cluster is given twice, every release job completes and no
// claim is left behind. The api hands out claims without the worker; the worker follows the releases.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R } from '../../src/sim/client/index.js';
import { ciRun, hibernatedPool, watchAssignments, type CiRun } from './claims.js';
import { fullSetOnly, scaled, startDrill, tally, until, type Drill } from './harness.js';
import { untilJobsCompleted } from './jobs.js';
import { mapLimit } from '../../src/map-limit.js';
import { CRASH_ENV, jobsOf, openJobs, reportDrill } from './kill-drills.js';
import { CLEAN } from './queued-hibernates.js';

/** 40 claims from a pool of 40 full size, at least 12: the kill lands with claims served and others waiting. */
const N = scaled(40, 12);
const NS = 'kclaims';
const claims = Array.from({ length: N }, (_, i) => `ci-${String(i).padStart(3, '0')}`);
let drill: Drill;
let pool: string;

describe(
  `drill: the worker killed (SIGKILL) while ${N} CI claims are served from a hibernated pool`,
  fullSetOnly(),
  () => {
    beforeAll(async () => {
      drill = await startDrill({ env: CRASH_ENV });
      pool = await hibernatedPool(drill, NS, 'builds', N);
    }, 240_000);

    afterAll(async () => drill?.close());

    it('every claim gets exactly one cluster, none given twice, every release completes', async () => {
      const assignments = watchAssignments(drill.kube(), NS);
      try {
        const runs: CiRun[] = [];
        const started = Date.now();
        // Eight CI jobs at a time; the kill comes once a quarter of them have released their cluster.
        const ci = mapLimit(claims, 8, async (claim) => {
          runs.push(await ciRun(drill, pool, NS, claim));
        });
        const killAt = Math.max(3, Math.round(N / 4));
        await until(`${killAt} CI jobs have released their cluster`, () => runs.length >= killAt, 120_000);
        const worker = drill.roles.find((r) => r.role === 'worker' && r.running())!;
        expect(await worker.kill('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
        const doneAtKill = runs.length;
        const killedMs = Date.now() - started;
        await drill.start('worker');
        await ci;

        // Every release job completes (the killed worker's go back to the queue when their lock lapses).
        await untilJobsCompleted(
          drill,
          runs.map((r) => r.releaseJob),
          { what: 'every release job has ended', concurrency: 16, timeoutMs: 120_000 },
        );
        const doneMs = Date.now() - started;
        const claimsLeft = (await drill.kube().list(R.clusterClaim, NS)).items.map((c) => String(c.metadata.name));
        const left = await openJobs(drill, (j) => j.target?.namespace === NS);

        const served = tally(claims, assignments.served());
        const givenTwice = assignments.givenTwice();
        reportDrill('kill-worker-mid-claim', served, {
          releasedAtKill: doneAtKill,
          killedMsAfterFirstClaim: killedMs,
          allReleasedMs: doneMs,
          clustersGivenTwice: givenTwice.length,
        });
        // The positive control: the kill came with CI jobs still to run.
        expect(doneAtKill).toBeLessThan(N);
        expect(served, JSON.stringify(served.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
        expect(givenTwice).toEqual([]);
        // What each CI job saw agrees with the hub: one cluster each, all different.
        expect(new Set(runs.map((r) => r.cluster)).size).toBe(N);
        expect(claimsLeft).toEqual([]);
        expect(jobsOf(left)).toEqual([]);
      } finally {
        assignments.stop();
      }
    }, 300_000);
  },
);
