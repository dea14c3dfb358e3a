import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, gate, type Harness, testJob } from './support.js';

describe('per-hub concurrency', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h?.close());

  it('caps jobs running at once for a hub across every worker process (global concurrency)', async () => {
    let running = 0;
    let most = 0;
    const release = gate();
    const handler = async () => {
      running++;
      most = Math.max(most, running);
      await release.promise;
      running--;
      return 'ok';
    };
    // Two "replicas", each willing to run 4 at once; the hub allows 2 in total.
    await h.startWorkers({ 'test.hold': handler }, { concurrency: 4, globalConcurrency: 2 });
    await h.startWorkers({ 'test.hold': handler }, { concurrency: 4, globalConcurrency: 2 });
    const jobs = await Promise.all([1, 2, 3, 4, 5].map((n) => h.queue.enqueue(testJob('test.hold', { n }))));

    await new Promise<void>((resolve) => {
      const stop = h.queue.watch(jobs[1]!.id, (v) => v.state === 'active' && (stop(), resolve()));
    });
    const states = await Promise.all(jobs.map(async (j) => (await h.queue.get(j.id))!.state));
    expect(states.filter((s) => s === 'active')).toHaveLength(2);

    release.open();
    const done = await Promise.all(jobs.map((j) => h.queue.waitUntilDone(j.id, 10_000)));
    expect(done.every((j) => j.state === 'completed')).toBe(true);
    expect(most).toBe(2);
  });
});
