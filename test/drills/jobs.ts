// Waiting for a drill's jobs to end, as a caller holding their ids would: through the API, never through Redis.
import { expect } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { until, type ApiAnswer, type Drill } from './harness.js';
import { mapLimit } from '../../src/map-limit.js';

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
      await mapLimit([...open], opts.concurrency, async (id) => {
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
