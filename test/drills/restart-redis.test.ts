// Drill (issue 9, "Proof"): 100 hibernates accepted with 202 while no worker runs, then Redis restarts; then a
// worker starts. Twice: without persistence (Redis comes back empty, as after a FLUSHALL) and with an append-only
// file (docs/platform.md, "Redis in production"), killed with SIGKILL so the last second of writes may be lost.
// Either way every cluster ends Hibernating, each changed exactly once, and every job id answers and completes.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { report as reportTally, scaled, startDrill, until, type Drill } from './harness.js';
import { CLEAN, figures, hibernatesQueuedThen, lostEvery, QUICK_ENV } from './queued-hibernates.js';

/** 100 clusters full size, at least 25 (still a queue of jobs, each lost and found again once per cluster). */
const N = scaled(100, 25);
let drill: Drill | undefined;

afterEach(async () => {
  await drill?.close();
  drill = undefined;
});

/** Redis down and up again, then the api answers from it again (its client reconnects with backoff). */
async function restart(d: Drill, crash: boolean) {
  await d.redis.restart({ crash });
  await until(
    'the api answers from Redis again',
    async () => (await d.api('GET', '/v1/jobs?limit=1')).status === 200,
    30_000,
  );
}

describe(`drill: Redis restarts with ${N} accepted hibernates queued`, () => {
  it('without persistence: Redis comes back empty, and every cluster still hibernates exactly once', async () => {
    drill = await startDrill({ roles: { worker: 0 }, env: QUICK_ENV });
    const d = drill;
    const report = await hibernatesQueuedThen(d, {
      namespace: 'restarted',
      count: N,
      disaster: () => restart(d, false),
    });
    reportTally('restart-redis (no persistence)', report.asked);
    console.log(
      `drill restart-redis (no persistence): hibernated ${figures(report.hibernated)}; spec changes ${figures(report.asked)}; ` +
        `Hibernated Events ${figures(report.reported)}; job ids after the restart answered from ${JSON.stringify(report.sources)}; ` +
        `every job completed ${report.doneMs} ms after the worker started`,
    );
    // Redis came back empty: no job answers as kept; each from its Operation, or queued again by the resync.
    expect(lostEvery(report.sources)).toEqual({ kept: 0, lost: N });
    expect(report.hibernated, JSON.stringify(report.hibernated.examples)).toMatchObject({
      expected: N,
      done: N,
      ...CLEAN,
    });
    expect(report.asked, JSON.stringify(report.asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(report.reported, JSON.stringify(report.reported.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
  }, 300_000);

  it('with AOF, killed: Redis comes back with the queued jobs, and every cluster hibernates exactly once', async () => {
    drill = await startDrill({ roles: { worker: 0 }, aof: true, env: QUICK_ENV });
    const d = drill;
    const report = await hibernatesQueuedThen(d, {
      namespace: 'persisted',
      count: N,
      // appendfsync everysec: what was written more than a second before the kill is in the file.
      disaster: async () => {
        await new Promise((r) => setTimeout(r, 1500));
        await restart(d, true);
      },
    });
    reportTally('restart-redis (AOF, SIGKILL)', report.asked);
    console.log(
      `drill restart-redis (AOF, SIGKILL): hibernated ${figures(report.hibernated)}; spec changes ${figures(report.asked)}; ` +
        `Hibernated Events ${figures(report.reported)}; job ids after the restart answered from ${JSON.stringify(report.sources)}; ` +
        `every job completed ${report.doneMs} ms after the worker started`,
    );
    // The file kept every job: they answer from Redis, and the worker runs them without waiting for the resync.
    expect(report.sources).toEqual({ redis: N });
    expect(report.hibernated, JSON.stringify(report.hibernated.examples)).toMatchObject({
      expected: N,
      done: N,
      ...CLEAN,
    });
    expect(report.asked, JSON.stringify(report.asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(report.reported, JSON.stringify(report.reported.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
  }, 300_000);
});
