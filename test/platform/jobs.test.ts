import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from '../../src/hive/errors.js';
import type { JobView } from '../../src/services/ports.js';
import { createHarness, type Harness, testJob } from './support.js';

describe('job queue on real Redis', () => {
  let h: Harness;
  const calls = new Map<string, number>();
  const count = (id: string) => calls.set(id, (calls.get(id) ?? 0) + 1).get(id)!;

  beforeAll(async () => {
    h = await createHarness({
      catalog: { 'test.flaky': { attempts: 4, backoffMs: 20 }, 'test.hopeless': { attempts: 2, backoffMs: 20 } },
    });
    await h.startWorkers({
      'test.flaky': async (p, ctx) => {
        // Transient errors twice, then success: Conflict then Unavailable.
        const n = count(ctx.jobId);
        if (n === 1) throw new Conflict('resourceVersion changed');
        if (n === 2) throw new Unavailable('hub is down');
        await ctx.step('done', `attempt ${ctx.attempt}`);
        return { attempt: ctx.attempt, echo: p.echo };
      },
      'test.invalid': async (_p, ctx) => {
        count(ctx.jobId);
        throw new Invalid('spec.platform.aws.region: is required', [
          { field: 'platform.aws.region', reason: 'is required' },
        ]);
      },
      'test.forbidden': async (_p, ctx) => {
        count(ctx.jobId);
        throw new Forbidden('cannot patch clusterdeployments');
      },
      'test.gone': async () => {
        throw new NotFound('clusterdeployment ns/x not found');
      },
      'test.hopeless': async (_p, ctx) => {
        count(ctx.jobId);
        throw new Unavailable('still down');
      },
      'test.slow': async () => new Promise((r) => setTimeout(() => r('slow done'), 300)),
    });
  });
  afterAll(() => h?.close());

  it('retries transient errors with backoff until the job completes', async () => {
    const job = await h.queue.enqueue(testJob('test.flaky', { echo: 'hi' }), {
      target: { kind: 'ClusterDeployment', hub: 'local', namespace: 'ns', name: 'c1' },
    });
    expect(job.id).toMatch(/^local\./);
    const done = await h.queue.waitUntilDone(job.id, 10_000);
    expect(done).toMatchObject({
      state: 'completed',
      attempts: 3,
      result: { attempt: 3, echo: 'hi' },
      target: { name: 'c1' },
    });
    expect(done.steps.map((s) => s.step)).toEqual(['done']);
    expect(calls.get(job.id)).toBe(3);
  });

  it('does not retry an invalid request or a forbidden one: the job fails with the reason', async () => {
    const invalid = await h.queue.enqueue(testJob('test.invalid', {}));
    const forbidden = await h.queue.enqueue(testJob('test.forbidden', {}));
    const [a, b] = await Promise.all([
      h.queue.waitUntilDone(invalid.id, 10_000),
      h.queue.waitUntilDone(forbidden.id, 10_000),
    ]);
    expect(a).toMatchObject({
      state: 'failed',
      attempts: 1,
      error: { message: 'spec.platform.aws.region: is required', reason: 'Invalid' },
    });
    expect(b).toMatchObject({ state: 'failed', attempts: 1, error: { reason: 'Forbidden' } });
    expect(calls.get(invalid.id)).toBe(1);
    expect(calls.get(forbidden.id)).toBe(1);
  });

  it('gives up on a transient error after the catalog attempts', async () => {
    const job = await h.queue.enqueue(testJob('test.hopeless', {}));
    const done = await h.queue.waitUntilDone(job.id, 10_000);
    expect(done).toMatchObject({
      state: 'failed',
      attempts: 2,
      error: { message: 'still down', reason: 'Unavailable' },
    });
  });

  it('treats a vanished target as done: nothing to do', async () => {
    const job = await h.queue.enqueue(testJob('test.gone', {}));
    expect(await h.queue.waitUntilDone(job.id, 10_000)).toMatchObject({
      state: 'completed',
      result: { outcome: 'NothingToDo', reason: 'NotFound' },
    });
  });

  it('collapses duplicates while the first is pending, and fixed ids run once', async () => {
    const first = await h.queue.enqueue(testJob('test.slow', { n: 1 }), { dedupId: 'hibernate-local-ns-c2' });
    const second = await h.queue.enqueue(testJob('test.slow', { n: 2 }), { dedupId: 'hibernate-local-ns-c2' });
    expect(second.id).toBe(first.id);
    await h.queue.waitUntilDone(first.id, 10_000);
    const third = await h.queue.enqueue(testJob('test.slow', { n: 3 }), { dedupId: 'hibernate-local-ns-c2' });
    expect(third.id).not.toBe(first.id);

    const tick = await h.queue.enqueue(testJob('test.slow', {}), { jobId: 'tick-nightly-1700000000000' });
    expect(tick.id).toBe('local.tick-nightly-1700000000000');
    await h.queue.waitUntilDone(tick.id, 10_000);
    const again = await h.queue.enqueue(testJob('test.slow', {}), { jobId: 'tick-nightly-1700000000000' });
    expect(again).toMatchObject({ id: tick.id, state: 'completed' });
  });

  it('refuses ids with ":" and payloads that carry secrets, naming every field', async () => {
    await expect(h.queue.enqueue(testJob('test.slow', {}), { jobId: 'a:b' })).rejects.toMatchObject({
      code: 'Invalid',
      fields: [{ field: 'jobId' }],
    });
    await expect(
      h.queue.enqueue(testJob('test.slow', { auth: { password: 'x' }, clusters: [{ kubeconfig: 'y' }] })),
    ).rejects.toMatchObject({
      code: 'Invalid',
      fields: [{ field: 'auth.password' }, { field: 'clusters[0].kubeconfig' }],
    });
    await expect(h.queue.enqueue(testJob('test.slow', {}), { hub: 'nowhere' })).rejects.toMatchObject({
      code: 'Invalid',
      fields: [{ field: 'hub' }],
    });
  });

  it('lists jobs newest first, by state and type, with paging', async () => {
    const page = await h.queue.list({ type: 'test.slow', limit: 2 });
    expect(page).toHaveLength(2);
    expect(page.every((j: JobView) => j.type === 'test.slow')).toBe(true);
    expect(page[0]!.createdAt >= page[1]!.createdAt).toBe(true);
    const failed = await h.queue.list({ state: 'failed' });
    expect(failed.map((j) => j.type).sort()).toEqual(['test.forbidden', 'test.hopeless', 'test.invalid']);
    const next = await h.queue.list({ type: 'test.slow', limit: 2, offset: 2 });
    expect(next.map((j) => j.id)).not.toContain(page[0]!.id);
  });

  it('reports a missing job as undefined and refuses to wait for it', async () => {
    expect(await h.queue.get('local.nope')).toBeUndefined();
    expect(await h.queue.get('nohub')).toBeUndefined();
    await expect(h.queue.waitUntilDone('local.nope', 100)).rejects.toMatchObject({ code: 'NotFound' });
  });
});
