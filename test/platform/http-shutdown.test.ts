// Closing the server ends what would otherwise hold the shutdown: event streams and long waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTeamDirectory } from '../../src/auth/team-directory.js';
import { createMetrics } from '../../src/http/metrics.js';
import { buildServer } from '../../src/http/server.js';
import type { JobView } from '../../src/services/ports.js';
import { demoRoutes } from './demo-routes.js';
import { createHarness, fakeStore, gate, quietLog, sseEvents, type Harness } from './support.js';

describe('HTTP edge shutting down', () => {
  let h: Harness;
  const hold = gate();
  beforeAll(async () => {
    h = await createHarness();
    await h.startWorkers({
      'test.demo': async (_p, ctx) => {
        await ctx.step('Started');
        await hold.promise;
        return 'done';
      },
    });
  });
  afterAll(async () => {
    hold.open();
    await h?.close();
  });

  it('ends event streams and long waits at once instead of holding the shutdown', async () => {
    // Count the waits the three requests below start, so the server closes only once all are waiting.
    let waits = 0;
    const allWaiting = gate();
    const counted =
      <A extends unknown[], R>(fn: (...a: A) => R) =>
      (...a: A): R => {
        if (++waits === 3) allWaiting.open();
        return fn(...a);
      };
    const queue = { ...h.queue, watch: counted(h.queue.watch), waitUntilDone: counted(h.queue.waitUntilDone) };
    const app = await buildServer({
      teams: configTeamDirectory(h.config),
      config: h.config,
      log: quietLog,
      queue,
      store: fakeStore(),
      metrics: createMetrics({ defaultMetrics: false }),
      routes: [demoRoutes({ ...h, queue })],
      redis: h.producer,
      queuesForBoard: [],
    });
    const post = await app.inject({ method: 'POST', url: '/v1/demo-jobs', payload: { name: 'held' } });
    const id = post.json<{ job: JobView }>().job.id;
    const stream = app.inject({ method: 'GET', url: `/v1/jobs/${id}/events` });
    const waiting = app.inject({ method: 'GET', url: `/v1/jobs/${id}?wait=3600` });
    const posting = app.inject({ method: 'POST', url: '/v1/demo-jobs?wait=3600', payload: { name: 'held-too' } });
    await allWaiting.promise;
    await app.close();
    const [s, w, p] = await Promise.all([stream, waiting, posting]);
    expect(sseEvents<JobView>(s.body).at(-1)).toMatchObject({ id });
    expect(w.json<{ job: JobView }>().job).toMatchObject({ id });
    expect(w.json<{ job: JobView }>().job.state).not.toBe('completed');
    expect(p.statusCode).toBe(202);
  });
});
