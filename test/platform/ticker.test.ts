import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicker } from '../../src/jobs/ticker.js';
import { createHarness, quietLog, type Harness } from './support.js';

describe('scheduler ticks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h?.close());

  it('enqueue one job per slot even when two scheduler replicas tick', async () => {
    // Each replica's enqueue resolves to the job it got; the second one of a slot must get the first one's job.
    const bySlot = new Map<string, string[]>();
    let twice!: (ids: string[]) => void;
    const bothEnqueued = new Promise<string[]>((r) => (twice = r));
    const queue = {
      ...h.queue,
      enqueue: async (...args: Parameters<typeof h.queue.enqueue>) => {
        const job = await h.queue.enqueue(...args);
        const ids = [...(bySlot.get(String(args[1].slot)) ?? []), job.id];
        bySlot.set(String(args[1].slot), ids);
        if (ids.length === 2) twice(ids);
        return job;
      },
    };
    const replicas = [createTicker({ queue, log: quietLog }), createTicker({ queue, log: quietLog })];
    for (const ticker of replicas) {
      ticker.add({ name: 'sweep', cron: '* * * * * *', job: (slot) => ({ type: 'test.sweep', payload: { slot: slot.toISOString() } }) });
    }
    const [a, b] = await bothEnqueued;
    await Promise.all(replicas.map((t) => t.close()));
    expect(a).toMatch(/^local\.tick-sweep-\d+000$/);
    expect(b).toBe(a);
    expect((await h.queue.list({ type: 'test.sweep' })).filter((j) => j.id === a)).toHaveLength(1);
  });

  it('refuses a bad cron pattern or task name at registration', () => {
    const ticker = createTicker({ queue: h.queue, log: quietLog });
    expect(() => ticker.add({ name: 'x', cron: 'every day', job: () => undefined })).toThrow(/invalid cron pattern/);
    expect(() => ticker.add({ name: 'a:b', cron: '* * * * *', job: () => undefined })).toThrow(/letters, digits and -/);
  });
});
