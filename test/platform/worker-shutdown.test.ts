import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, systemClock } from '../../src/clock.js';
import type { JobView } from '../../src/services/ports.js';
import { createHarness, type Harness, testJob } from './support.js';

describe('worker shutdown', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h?.close());

  it('lets a short job finish, and hands a long one back to the queue for the next worker without spending an attempt', async () => {
    const runs: string[] = [];
    const first = await h.startWorkers({
      'test.short': async () => {
        await sleep(systemClock, 200);
        return 'finished during shutdown';
      },
      // Waits on Hive the way real handlers do: until done or until the signal aborts.
      'test.long': async (_p, ctx) => {
        runs.push(`attempt ${ctx.attempt}`);
        await ctx.step('WaitingForHive');
        await sleep(systemClock, 60_000, ctx.signal);
        return 'never';
      },
    });
    const short = await h.queue.enqueue(testJob('test.short', {}));
    const long = await h.queue.enqueue(testJob('test.long', {}));
    await new Promise<void>((resolve) => {
      const stop = h.queue.watch(long.id, (v: JobView) => v.steps.length > 0 && (stop(), resolve()));
    });

    await first.close(); // shutdownGraceMs is 2 s in FAST_JOBS
    expect(await h.queue.get(short.id)).toMatchObject({ state: 'completed', result: 'finished during shutdown' });
    expect(await h.queue.get(long.id)).toMatchObject({ state: 'waiting', attempts: 0 });

    await h.startWorkers({
      'test.long': async (_p, ctx) => {
        runs.push(`attempt ${ctx.attempt}`);
        return 'resumed elsewhere';
      },
    });
    expect(await h.queue.waitUntilDone(long.id, 10_000)).toMatchObject({
      state: 'completed',
      result: 'resumed elsewhere',
    });
    expect(runs).toEqual(['attempt 1', 'attempt 1']);
  });
});
