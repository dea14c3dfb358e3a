import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invalid, Unavailable } from '../../src/hive/errors.js';
import { WAIT_FOR_CHILDREN, type ChildOutcome, type JobHandler, type JobView } from '../../src/services/ports.js';
import { createHarness, gate, type Harness, testJob } from './support.js';

/** Resolves with the first view of the job that passes `test` (the job may not be in that state yet). */
function seen(h: Harness, id: string, test: (j: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const off = h.queue.watch(id, (j) => {
      if (!test(j)) return;
      off();
      resolve(j);
    });
  });
}

describe('a job fanning out child jobs', () => {
  let h: Harness;
  let release = gate();
  const planRuns = new Map<string, number>();
  const childRuns = new Map<string, number>();
  const finishFailures = new Map<string, number>();

  // A parent plans its children once, fans them out (on the hub its payload names), and on the run after they end
  // returns their outcomes; `failFinishOnce` makes that last step fail once (a transient error) to show a retry.
  const parent: JobHandler = async (p, ctx) => {
    const keys = await ctx.once!('plan', async () => {
      planRuns.set(ctx.jobId, (planRuns.get(ctx.jobId) ?? 0) + 1);
      return ['a', 'b', 'c'];
    });
    const outcomes = await ctx.waitForChildren!(
      keys.map((k) => ({ key: k, ...testJob('test.child', { k }), hub: p.childHub as string })),
      { step: 'FannedOut', message: `Waiting for ${keys.length} child jobs` },
    );
    if (outcomes === WAIT_FOR_CHILDREN) return outcomes;
    if (p.failFinishOnce && !finishFailures.has(ctx.jobId)) {
      finishFailures.set(ctx.jobId, 1);
      throw new Unavailable('status write failed');
    }
    return outcomes;
  };

  beforeAll(async () => {
    h = await createHarness({
      hubs: ['one', 'two'],
      catalog: { 'test.parent': { attempts: 3, backoffMs: 20 }, 'test.child': { attempts: 2, backoffMs: 20 } },
    });
    // One slot per hub: a parent that held its slot while its children queued behind it on the same hub would wait
    // for ever.
    await h.startWorkers(
      {
        'test.parent': parent,
        'test.child': async (p, ctx) => {
          childRuns.set(ctx.jobId, (childRuns.get(ctx.jobId) ?? 0) + 1);
          await release.promise;
          if (p.k === 'c') throw new Invalid('c is refused');
          return { done: p.k };
        },
      },
      { concurrency: 1 },
    );
  });
  afterAll(() => h?.close());

  it('waits in waiting-children without its slot, so children on its own hub run, then ends with their outcomes', async () => {
    release = gate();
    const job = await h.queue.enqueue(testJob('test.parent', { childHub: 'one' }), { hub: 'one' });
    const waiting = await seen(h, job.id, (j) => j.state === 'waiting-children');
    expect(waiting.steps).toEqual([
      expect.objectContaining({ step: 'FannedOut', message: 'Waiting for 3 child jobs' }),
    ]);
    // The parent's only slot is free: its first child is running on the same hub.
    const first = await seen(h, `one.${job.id}.a`, (j) => j.state === 'active');
    expect(first.type).toBe('test.child');
    expect((await h.queue.get(job.id))?.state).toBe('waiting-children');
    release.open();

    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect(done.state).toBe('completed');
    expect(done.result as ChildOutcome[]).toEqual([
      { key: 'a', id: `one.${job.id}.a`, state: 'completed', result: { done: 'a' } },
      { key: 'b', id: `one.${job.id}.b`, state: 'completed', result: { done: 'b' } },
      { key: 'c', id: `one.${job.id}.c`, state: 'failed', error: 'c is refused' },
    ]);
    expect(planRuns.get(job.id)).toBe(1);
    expect(done.steps.map((s) => s.step)).toEqual(['FannedOut']);
  });

  it('puts children on their own hub queue', async () => {
    release = gate();
    const job = await h.queue.enqueue(testJob('test.parent', { childHub: 'two' }), { hub: 'one' });
    await seen(h, `two.${job.id}.a`, (j) => j.state === 'active');
    expect((await h.queue.get(job.id))?.state).toBe('waiting-children');
    release.open();
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect((done.result as ChildOutcome[]).map((o) => [o.id, o.state])).toEqual([
      [`two.${job.id}.a`, 'completed'],
      [`two.${job.id}.b`, 'completed'],
      [`two.${job.id}.c`, 'failed'],
    ]);
  });

  it('refuses children for an unknown hub before adding any: the parent fails with the reason', async () => {
    const job = await h.queue.enqueue(testJob('test.parent', { childHub: 'nowhere' }), { hub: 'one' });
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    expect(done).toMatchObject({ state: 'failed', error: { reason: 'Invalid' } });
    expect(done.error?.message).toContain('nowhere');
    expect(await h.queue.list({ type: 'test.child', limit: 100 })).not.toContainEqual(
      expect.objectContaining({ id: expect.stringContaining(job.id) }),
    );
  });

  it('retried after its children ended, it neither plans again nor re-runs a child', async () => {
    release = gate();
    release.open();
    const job = await h.queue.enqueue(testJob('test.parent', { childHub: 'one', failFinishOnce: true }), {
      hub: 'one',
    });
    const done = await h.queue.waitUntilDone(job.id, 15_000);
    // One failed attempt and the successful one; the run that only fanned out spent no attempt.
    expect(done).toMatchObject({ state: 'completed', attempts: 2 });
    expect((done.result as ChildOutcome[]).map((o) => o.state)).toEqual(['completed', 'completed', 'failed']);
    expect(planRuns.get(job.id)).toBe(1);
    expect(['a', 'b', 'c'].map((k) => childRuns.get(`one.${job.id}.${k}`))).toEqual([1, 1, 1]);
  });
});
