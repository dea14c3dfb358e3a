// Drill (issue 14, "SIGKILL a worker mid-sweep (≥ 500 clusters) ... every cluster acted on exactly once, nothing
// stuck"): a schedule's hibernate edge sweeps 500 Running clusters; when some but not all have been asked to
// hibernate, the worker is killed with SIGKILL and a new one started. The killed worker's jobs go back to the queue
// once their lock lapses (2 s here) and the new worker finishes the sweep: every cluster changes power exactly once
// (counted by a watch on the hub), the sweep job completes, `status.lastSweep` is written, no job is left open.
// Counted from outside (the hub, the API), so it holds whatever the sweep does inside (child jobs or a pool).
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { adoptRunning } from './clusters.js';
import { scaled, startDrill, tally, until, type Drill } from './harness.js';
import {
  counts,
  CRASH_ENV,
  hibernateAtNextMinute,
  jobsOf,
  lastSweepOf,
  openJobs,
  reportDrill,
  startRolesBeforeEdge,
  type LastSweep,
} from './kill-drills.js';
import type { PowerChanges } from './power-changes.js';
import { CLEAN } from './queued-hibernates.js';

/** 500 clusters full size, at least 125: enough for the kill to land with patches behind it and ahead. */
const N = scaled(500, 125);
const NS = 'kswept';
const names = Array.from({ length: N }, (_, i) => `${NS}-${String(i).padStart(3, '0')}`);
let drill: Drill;
let power: PowerChanges;

beforeAll(async () => {
  // The hub's request budget at 20 a second (an optional cap), so the sweep takes seconds and the kill lands in it:
  // at 100 a second a fast machine's sweep had asked all 125 clusters before the kill (916 ms after the edge).
  // The roles start once the clusters run, their clocks a little before a whole minute (the edge).
  drill = await startDrill({
    env: { ...CRASH_ENV, BEEKEEPER_KUBE_QPS: '20', BEEKEEPER_KUBE_BURST: '20' },
    deferRoles: true,
  });
  power = await adoptRunning(drill, NS, names);
  await startRolesBeforeEdge(drill);
}, 240_000);

afterAll(async () => {
  power?.stop();
  await drill?.close();
});

describe(`drill: the worker killed (SIGKILL) in the middle of an edge sweep over ${N} clusters`, () => {
  it('a new worker finishes it: every cluster hibernated exactly once, the sweep job completed, lastSweep written', async () => {
    const edge = await hibernateAtNextMinute(drill, 'nightly', [NS]);
    const killAt = Math.max(5, Math.round(N / 10));
    await until(
      `the sweep has asked ${killAt} clusters to hibernate`,
      () => power.asked('Hibernating').length >= killAt,
      edge.at.getTime() - drill.now() + 60_000,
    );
    const worker = drill.roles.find((r) => r.role === 'worker' && r.running())!;
    expect(await worker.kill('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    const killedMs = drill.now() - edge.at.getTime();
    const atKill = new Set(power.asked('Hibernating')).size;
    const reachedAtKill = new Set(power.reached('Hibernating')).size;

    await drill.start('worker');
    const restarted = Date.now();
    await until(
      `all ${N} clusters report Hibernating`,
      () => names.every((n) => power.now(n) === 'Hibernating'),
      180_000,
    );
    let lastSweep: LastSweep | undefined;
    await until(
      'the schedule records its sweep',
      async () => Boolean((lastSweep = await lastSweepOf(drill, 'nightly'))?.finishedAt),
      60_000,
    );
    const doneMs = Date.now() - restarted;
    const job = await drill.api<{ job: JobView }>('GET', `/v1/jobs/${lastSweep!.jobId}`);
    // Nothing stuck: no job of the sweep (or of its clusters) left waiting, active or failed.
    let open: JobView[] = [];
    await until(
      'no job of the sweep is left open',
      async () =>
        (open = await openJobs(drill, (j) => j.type.startsWith('schedule.') || j.target?.namespace === NS)).length ===
        0,
      30_000,
    ).catch(() => undefined);

    const hibernated = tally(names, power.reached('Hibernating'));
    const asked = tally(names, power.asked('Hibernating'));
    reportDrill('kill-worker-mid-sweep', hibernated, {
      asked: counts(asked),
      askedAtKill: atKill,
      hibernatedAtKill: reachedAtKill,
      killedMsAfterEdge: killedMs,
      doneMsAfterNewWorker: doneMs,
      lastSweep: { acted: lastSweep?.acted, skipped: lastSweep?.skipped, failed: lastSweep?.failed },
    });
    // The positive control: the kill took part of the sweep.
    expect(atKill).toBeLessThan(N);
    expect(hibernated, JSON.stringify(hibernated.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(asked, JSON.stringify(asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(lastSweep).toMatchObject({ edge: edge.at.toISOString(), failed: 0 });
    expect((lastSweep?.acted ?? 0) + (lastSweep?.skipped ?? 0)).toBe(N);
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    expect(job.body.job.state).toBe('completed');
    expect(jobsOf(open)).toEqual([]);
  }, 300_000);
});
