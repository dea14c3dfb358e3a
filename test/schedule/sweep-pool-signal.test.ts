// The sweep job's AbortSignal and the pool's workers: every worker of every hub may wait at once (a Conflict's or a
// 429's back-off, listening for the job to be stopped), which must neither pile listeners on the job's signal (Node's
// MaxListenersExceededWarning past 10, seen in bench/sweep-vs-loops on 3 hubs) nor leave one behind when the pool is
// done; stopping the job still wakes every waiting worker.
import { getEventListeners } from 'node:events';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHubPool } from '../../src/services/schedules/sweep-pool.js';

const hubs = (n: number, items: number) =>
  new Map(Array.from({ length: n }, (_, h) => [`hub-${h}`, Array.from({ length: items }, (_, i) => `${h}-${i}`)]));

let warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => void process.off('warning', onWarning));

describe("the sweep pool and the job's signal", () => {
  it('96 workers waiting at once add one listener to the job signal, none once done, and no warning', async () => {
    const job = new AbortController();
    let most = 0;
    let waiting = 0;
    const pool = createHubPool<string>({
      items: hubs(3, 64),
      width: () => 32,
      signal: job.signal,
      work: async (_item, _hub, signal) => {
        waiting += 1;
        // Every worker is inside a back-off wait here together before any leaves it.
        while (waiting < 96) await tick(undefined, { signal });
        most = Math.max(most, getEventListeners(job.signal, 'abort').length);
        await tick(undefined, { signal });
      },
    });
    await pool.run();
    await tick(); // a warning is emitted on the next tick
    expect(most).toBe(1);
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('stopping the job wakes every worker waiting on the signal it was given, and the pool rejects', async () => {
    const job = new AbortController();
    let waiting = 0;
    const woken: unknown[] = [];
    const pool = createHubPool<string>({
      items: hubs(3, 20),
      width: () => 20,
      signal: job.signal,
      work: async (_item, _hub, signal) => {
        const stopped = new Promise<void>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
        );
        if (++waiting === 60) job.abort(new Error('stopped'));
        await stopped.catch((err: unknown) => void woken.push(err));
        signal.throwIfAborted();
      },
    });
    await expect(pool.run()).rejects.toThrow('stopped');
    expect(woken).toHaveLength(60);
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
  });
});
