// After Redis loses a running job, the resync queues it again under the same id. When that second run lands in the
// process still running the first, BullMQ's lock bookkeeping (one entry per job id) forgets the second run's lock
// as soon as the first one ends: without a renewal of its own, the second run stalls and runs a third time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, systemClock } from '../../src/clock.js';
import { dropKeys } from '../../src/system/embedded-prefix.js';
import { createHarness, gate, type Harness, testJob } from './support.js';

describe('a job queued again under the same id while its lost run goes on in this process', () => {
  let h: Harness;
  beforeAll(async () => {
    // Locks of 1 s checked every 0.5 s: a run whose lock is not renewed stalls within about 2 s.
    h = await createHarness({ jobs: { lockDurationMs: 1000, stalledIntervalMs: 500 } });
  });
  afterAll(() => h?.close());

  it('keeps the second run locked after the first ends, so it runs once and completes', async () => {
    const firstRunGoesOn = gate();
    const runs: number[] = [];
    await h.startWorkers({
      'test.long': async () => {
        const run = runs.push(runs.length + 1);
        if (run === 1) {
          await firstRunGoesOn.promise; // the lost run, still working when its job is queued again
          return 'first';
        }
        await sleep(systemClock, 4000); // well past the lock: only a renewed lock keeps it this run's
        return `run ${run}`;
      },
    });
    const first = await h.queue.enqueue(testJob('test.long', {}), { jobId: 'same-id' });
    await waitFor(() => runs.length === 1);

    await dropKeys(h.producer, h.config.redis.prefix); // Redis forgets everything
    await h.queue.enqueue(testJob('test.long', {}), { jobId: 'same-id' });
    await waitFor(() => runs.length === 2);
    firstRunGoesOn.open();

    const done = await h.queue.waitUntilDone(first.id, 15_000);
    expect(done).toMatchObject({ state: 'completed', result: 'run 2' });
    expect(runs).toEqual([1, 2]);
  }, 30_000);
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(systemClock, 20);
  }
}
