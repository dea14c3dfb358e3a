// A sweep's progress for its callers (GET /v1/jobs/{id}, the SSE stream): clusters done of the total and the
// outcomes so far, written to the job at most twice a second and at least once a second while the sweep runs. One
// Redis write per tick, never one per cluster: the pool's per-cluster cost stays a PATCH.
import type { JobContext } from '../ports.js';

const TICK_MS = 500;
const AT_LEAST_MS = 1000;

export interface SweepProgress {
  count(outcome: 'acted' | 'skipped' | 'failed'): void;
  /** Stops the ticks and writes the final figures. */
  stop(): Promise<void>;
}

/** `total` clusters for the pool plus `skipped` the plan already skipped (done from the start). */
export function startProgress(
  ctx: Pick<JobContext, 'progress' | 'log'>,
  total: number,
  skipped: number,
): SweepProgress {
  const counts = { acted: 0, skipped, failed: 0 };
  let done = skipped;
  let written = -1;
  let writtenAt = 0;
  let writing: Promise<void> | undefined;
  const write = () => {
    if (!ctx.progress || writing) return;
    written = done;
    writtenAt = Date.now();
    writing = ctx
      .progress({ done, total: total + skipped, counts: { ...counts } })
      .catch((err: unknown) => ctx.log.warn({ err }, 'cannot record sweep progress'))
      .finally(() => (writing = undefined));
  };
  write();
  // Wall-clock time on purpose: this paces writes to Redis, and a test's clock does not move on its own.
  const timer = setInterval(() => {
    if (done !== written || Date.now() - writtenAt >= AT_LEAST_MS) write();
  }, TICK_MS);
  timer.unref();
  return {
    count(outcome) {
      counts[outcome]++;
      done++;
    },
    async stop() {
      clearInterval(timer);
      await writing;
      write();
      await writing;
    },
  };
}
