// Drill (issue 9, "Proof"): 100 hibernates accepted with 202 while no worker runs, so their jobs wait in Redis;
// then FLUSHALL; then a worker starts. Every cluster ends Hibernating, each changed exactly once (counted by a watch
// on the hub, not from the final state), and every job id answers GET /v1/jobs/{id} throughout: from its Operation
// while Redis has nothing, then from the job the scheduler's resync queued again under the same id.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report as reportTally, scaled, startDrill, type Drill } from './harness.js';
import { CLEAN, figures, hibernatesQueuedThen, lostEvery, QUICK_ENV } from './queued-hibernates.js';

/** 100 clusters full size, at least 25 (still a queue of jobs, each lost and found again once per cluster). */
const N = scaled(100, 25);
let drill: Drill;

beforeAll(async () => {
  drill = await startDrill({ roles: { worker: 0 }, env: QUICK_ENV });
}, 120_000);

afterAll(async () => drill?.close());

describe(`drill: FLUSHALL with ${N} accepted hibernates queued`, () => {
  it('hibernates every cluster exactly once, and every job id answers and completes', async () => {
    const report = await hibernatesQueuedThen(drill, {
      namespace: 'flushed',
      count: N,
      disaster: () => drill.redis.flushAll(),
    });
    reportTally('flush-queued-operations', report.asked);
    console.log(
      `drill flush-queued-operations: hibernated ${figures(report.hibernated)}; spec changes ${figures(report.asked)}; ` +
        `Hibernated Events ${figures(report.reported)}; job ids after the flush answered from ${JSON.stringify(report.sources)}; ` +
        `every job completed ${report.doneMs} ms after the worker started`,
    );
    // Redis lost every job: none answers as kept; each from its Operation, or queued again by the resync.
    expect(lostEvery(report.sources)).toEqual({ kept: 0, lost: N });
    expect(report.hibernated, JSON.stringify(report.hibernated.examples)).toMatchObject({
      expected: N,
      done: N,
      ...CLEAN,
    });
    expect(report.asked, JSON.stringify(report.asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(report.reported, JSON.stringify(report.reported.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
  }, 300_000);
});
