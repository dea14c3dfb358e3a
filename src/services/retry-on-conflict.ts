// A conditional write (a PATCH carrying the resourceVersion it judged) that meets a Conflict is judged again from a
// fresh read, as client-go's retry.RetryOnConflict does. Hive's controllers write a ClusterDeployment in bursts: on
// the simulator about nine writes within ~200 ms of a cluster appearing, and the same after each power change. Tried
// again at once (as this code did), five reads and PATCHes fit inside one burst and a person's request answered 409
// "the object has been modified". So the tries back off like client-go's retry.DefaultBackoff (10 ms growing ×5,
// jitter 0.1) over five steps: waits of about 10, 50, 250 and 1,250 ms, at most ~1.6 s before the Conflict is handed on.
import { setTimeout as wait } from 'node:timers/promises';
import { WriteConflict } from '../hive/errors.js';

/** Tries of one conditional write, the first included. */
export const CONFLICT_TRIES = 5;
const FIRST_WAIT_MS = 10;
const FACTOR = 5;
const JITTER = 0.1;

/**
 * The wait after the `attempt`-th Conflict (1-based). Wall-clock time, not the service's Clock: it spaces real
 * requests to a real API server, and a test's frozen clock must not stall a write.
 */
export function conflictWaitMs(attempt: number, random: () => number = Math.random): number {
  const base = FIRST_WAIT_MS * FACTOR ** (attempt - 1);
  return Math.round(base * (1 + JITTER * random()));
}

/**
 * Runs `attempt(n)` (n from 1) until it returns, retrying after the hub's WriteConflict with the back-off above.
 * Anything else (a refusal `attempt` makes itself is a plain Conflict), or a WriteConflict on the last try, is
 * thrown. `attempt` reads again when n > 1: the version it judged has moved.
 */
export async function retryOnConflict<T>(
  attempt: (n: number) => Promise<T>,
  opts: { tries?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const tries = opts.tries ?? CONFLICT_TRIES;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof WriteConflict) || n >= tries) throw err;
      await wait(conflictWaitMs(n), undefined, opts.signal ? { signal: opts.signal } : undefined);
    }
  }
}
