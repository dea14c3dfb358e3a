// Waiting for a drill's jobs to end, as a caller holding their ids would: through the API, never through Redis.
import { expect } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { until, type ApiAnswer, type Drill } from './harness.js';

/**
 * Waits until every job in `ids` has completed, asking each open one with `?wait=5` (a long poll), `concurrency` at
 * a time; fails at once when an id does not answer 200 or a job failed. `get` replaces `drill.api` (a caller that
 * retries through the api's restart, say).
 */
export async function untilJobsCompleted(
  drill: Drill,
  ids: Iterable<string>,
  opts: {
    what?: string;
    concurrency: number;
    timeoutMs: number;
    get?: (path: string) => Promise<ApiAnswer<{ job: JobView }>>;
  },
): Promise<void> {
  const get = opts.get ?? ((path: string) => drill.api<{ job: JobView }>('GET', path));
  const open = new Set(ids);
  await until(
    opts.what ?? 'every job has ended',
    async () => {
      await inPool([...open], opts.concurrency, async (id) => {
        const res = await get(`/v1/jobs/${id}?wait=5`);
        expect({ id, status: res.status }).toEqual({ id, status: 200 });
        const { state, error, target } = res.body.job;
        if (state === 'completed') open.delete(id);
        else expect({ id, target: target?.name, state, error }).not.toMatchObject({ state: 'failed' });
      });
      return open.size === 0;
    },
    opts.timeoutMs,
  );
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function inPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
