// Two classes of work per hub (src/jobs/catalog.ts): interactive work, which API callers wait on, has slots of its
// own that background work never takes, in one process or across replicas; within background work, a schedule's
// edge goes before warnings queued earlier. The handlers stand in for the real ones of each type.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createMetrics } from '../../src/http/metrics.js';
import { JOB_CATALOG } from '../../src/jobs/catalog.js';
import { WAIT_FOR_CHILDREN, type JobHandler, type JobQueue, type JobView } from '../../src/services/ports.js';
import { FEATURES } from '../../src/system/features.js';
import { createHarness, fakeStore, gate, quietLog, testConfig, type Harness, testJob } from './support.js';

/** Resolves once `n` calls have been counted. */
function counter(n: number) {
  let count = 0;
  const reached = gate();
  return {
    hit: () => ++count >= n && reached.open(),
    get count() {
      return count;
    },
    reached: reached.promise,
  };
}

describe('interactive and background work', () => {
  let h: Harness;
  /** Holds the background jobs that block; opened at the end of each test. */
  let hold: ReturnType<typeof gate<void>>;
  beforeEach(async () => {
    hold = gate();
    h = await createHarness();
  });
  afterEach(async () => {
    hold.open();
    await h?.close();
  });

  it("runs a user's delete at once while warnings hold every background slot of the hub, across two replicas", async () => {
    const warnings = counter(3);
    const handlers: Record<string, JobHandler> = {
      'expiry.warn': async () => {
        warnings.hit();
        await hold.promise;
        return { outcome: 'warned' };
      },
      'cluster.delete': async () => ({ deleted: true }),
    };
    // Each replica would take 2 background jobs, the hub allows 3 at once; one interactive slot per replica.
    const slots = { concurrency: 1, globalConcurrency: 1, background: { concurrency: 2, globalConcurrency: 3 } };
    await h.startWorkers(handlers, slots);
    await h.startWorkers(handlers, slots);
    const warns = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.queue.enqueue(testJob('expiry.warn', { i }))),
    );
    await warnings.reached;

    const del = await h.queue.enqueue(testJob('cluster.delete', { name: 'web-1' }));
    const done = await h.queue.waitUntilDone(del.id, 10_000);
    expect(done).toMatchObject({ state: 'completed', result: { deleted: true } });
    // The warnings are still held, at the hub's background limit, and the rest still wait (as `waiting`).
    expect(warnings.count).toBe(3);
    const states = await Promise.all(warns.map(async (w) => (await h.queue.get(w.id))!.state));
    expect(states.filter((s) => s === 'active')).toHaveLength(3);
    expect(states.filter((s) => s === 'waiting')).toHaveLength(7);
    expect((await h.queue.list({ state: 'waiting', type: 'expiry.warn' })).map((j) => j.id).sort()).toEqual(
      warns
        .filter((_, i) => states[i] === 'waiting')
        .map((w) => w.id)
        .sort(),
    );
  });

  it('within background work, starts a schedule edge and a lapsed heartbeat before warnings queued earlier', async () => {
    const order: string[] = [];
    const first = counter(1);
    const record =
      (type: string): JobHandler =>
      async (payload) => {
        order.push(`${type}#${String(payload.n)}`);
        first.hit();
        if (payload.n === 0) await hold.promise;
        return {};
      };
    await h.startWorkers(
      {
        'expiry.warn': record('warn'),
        'schedule.sweep': record('sweep'),
        'claim.heartbeat-expired': record('heartbeat'),
        'expiry.enforce-policy': record('policy'),
      },
      { concurrency: 1, globalConcurrency: 1, background: { concurrency: 1, globalConcurrency: 1 } },
    );
    await h.queue.enqueue(testJob('expiry.warn', { n: 0 }));
    await first.reached; // the one slot is taken; everything below queues behind it
    const queued: JobView[] = [];
    for (const n of [1, 2, 3]) queued.push(await h.queue.enqueue(testJob('expiry.warn', { n })));
    queued.push(await h.queue.enqueue(testJob('expiry.enforce-policy', { n: 4 })));
    queued.push(await h.queue.enqueue(testJob('schedule.sweep', { n: 5 })));
    queued.push(await h.queue.enqueue(testJob('claim.heartbeat-expired', { n: 6 })));
    hold.open();
    for (const j of queued) expect((await h.queue.waitUntilDone(j.id, 10_000)).state).toBe('completed');
    expect(order).toEqual(['warn#0', 'sweep#5', 'heartbeat#6', 'policy#4', 'warn#1', 'warn#2', 'warn#3']);
  });

  it('finishes a schedule run asked for through the API, children included, while warnings hold every background slot', async () => {
    const warnings = counter(1);
    await h.startWorkers(
      {
        'expiry.warn': async () => {
          warnings.hit();
          await hold.promise;
          return {};
        },
        // A run fans out per-cluster jobs of a background type: they run in their parent's class.
        'schedule.run': async (_payload, ctx) => {
          const children = await ctx.waitForChildren!(
            [1, 2].map((n) => ({ key: `c${n}`, ...testJob('schedule.apply', { n }) })),
          );
          if (children === WAIT_FOR_CHILDREN) return children;
          return { children: children.map((c) => c.state) };
        },
        'schedule.apply': async () => ({ outcome: 'acted' }),
      },
      { concurrency: 1, globalConcurrency: 1, background: { concurrency: 1, globalConcurrency: 1 } },
    );
    await h.queue.enqueue(testJob('expiry.warn', {}));
    await warnings.reached;
    const run = await h.queue.enqueue(testJob('schedule.run', {}));
    expect(await h.queue.waitUntilDone(run.id, 10_000)).toMatchObject({
      state: 'completed',
      result: { children: ['completed', 'completed'] },
    });
  });
});

describe('the job catalog', () => {
  it('says the class of every job type Beekeeper runs (an unlisted type would silently be background)', () => {
    const deps = {
      config: testConfig(),
      store: fakeStore(),
      queue: {} as unknown as JobQueue,
      clock: systemClock,
      log: quietLog,
      metrics: createMetrics({ defaultMetrics: false }),
    };
    const types = FEATURES.flatMap((f) => (f(deps as Parameters<typeof f>[0]).jobs ?? []).map((r) => r.job.type));
    expect(types.length).toBeGreaterThan(10);
    expect(types.filter((t) => JOB_CATALOG[t]?.class === undefined)).toEqual([]);
  });
});

describe('global limits after Redis forgets', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('writes each class its hub-wide limit again within a stalled-check interval after a flush', async () => {
    h = await createHarness(); // stalled checks every second (FAST_JOBS)
    await h.startWorkers(
      {},
      { concurrency: 2, globalConcurrency: 3, background: { concurrency: 2, globalConcurrency: 5 } },
    );
    const limit = (queue: string) => h.producer.hget(`${h.config.redis.prefix}:${queue}:meta`, 'concurrency');
    expect([await limit('ops-local'), await limit('ops-local.background')]).toEqual(['3', '5']);
    // What FLUSHALL does to this harness's keys (the shared Redis is never flushed).
    const keys = await h.producer.keys(`${h.config.redis.prefix}*`);
    await h.producer.del(...keys);
    expect(await limit('ops-local')).toBeNull();
    const deadline = Date.now() + 10_000;
    while ((await limit('ops-local')) === null || (await limit('ops-local.background')) === null) {
      if (Date.now() > deadline) throw new Error('the global limits were not written again within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([await limit('ops-local'), await limit('ops-local.background')]).toEqual(['3', '5']);
  });
});
