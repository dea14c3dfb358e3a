// Job history is bounded: Redis keeps the newest finished jobs up to the configured counts, not every job ever run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invalid } from '../../src/hive/errors.js';
import { createHarness, type Harness, testJob } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ jobs: { keepCompletedCount: 2, keepFailedCount: 1 } });
  await h.startWorkers({
    'test.ok': async (p) => ({ n: p.n }),
    'test.bad': async () => {
      throw new Invalid('never retried', [{ field: 'x', reason: 'bad' }]);
    },
  });
});
afterAll(() => h?.close());

describe('bounded job history', () => {
  it('keeps the newest completed and failed jobs up to the configured counts', async () => {
    const target = (name: string) => ({
      target: { kind: 'ClusterDeployment' as const, hub: 'local', namespace: 'ns', name },
    });
    const ok: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const job = await h.queue.enqueue(testJob('test.ok', { n }), target(`ok-${n}`));
      await h.queue.waitUntilDone(job.id, 10_000);
      ok.push(job.id);
    }
    for (let n = 1; n <= 3; n++) {
      const job = await h.queue.enqueue(testJob('test.bad', {}), target(`bad-${n}`));
      await h.queue.waitUntilDone(job.id, 10_000).catch(() => undefined);
    }
    const completed = await h.queue.list({ state: 'completed' });
    expect(completed.map((j) => j.id).sort()).toEqual(ok.slice(-2).sort());
    expect(await h.queue.list({ state: 'failed' })).toHaveLength(1);
    expect(await h.queue.get(ok[0]!)).toBeUndefined();
  });
});
