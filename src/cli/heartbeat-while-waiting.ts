// While `claim --wait` waits, the claim's heartbeat timeout is already running: the deadline starts when the claim
// is created (its Lease), not when the cluster runs. A wait longer than the timeout (a queue, a pool building a
// cluster) would see the claim released under the waiting CLI, so the CLI, the holder, heartbeats while it waits.
import type { CliContext } from './context.js';
import { pause } from './context.js';

/** Beats once now, then about three times per timeout (at most every minute). Returns the function that stops it. */
export async function heartbeatWhileWaiting(
  ctx: CliContext,
  id: string,
  timeoutSeconds: number,
): Promise<() => Promise<void>> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const everyMs = Math.min(60_000, Math.max(1000, Math.floor((timeoutSeconds * 1000) / 3)));
  let warned = false;
  const beat = () =>
    ctx.client.request('POST', `/v1/claims/${id}/heartbeat`, { body: {}, signal: stop.signal }).catch((err: Error) => {
      // The wait itself reports a claim that is gone; say a failing heartbeat once, not every interval.
      if (err.name !== 'AbortError' && !warned) ctx.err(`heartbeat while waiting failed, retrying: ${err.message}`);
      warned = err.name !== 'AbortError';
    });
  await beat();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      await pause(everyMs, stop.signal);
      if (!stop.signal.aborted) await beat();
    }
  })();
  return async () => {
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
    await loop;
  };
}
