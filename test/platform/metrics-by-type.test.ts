// beekeeper_jobs_in_flight{hub,class,type,state}: unfinished jobs by type, read from Redis by the periodic refresh (not
// the scrape), so an operator sees which kinds of work are queued or running across every replica, and finished
// types drop out.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import { buildTestServer, createHarness, gate, startTestRefresher, type Harness, testJob } from './support.js';

/** The value of one beekeeper_jobs_in_flight series, or undefined when the series is absent. */
function inFlight(body: string, labels: { type: string; state: string }): number | undefined {
  // Types the catalog does not list are background work.
  const prefix = `beekeeper_jobs_in_flight{hub="local",class="background",type="${labels.type}",state="${labels.state}"} `;
  const line = body.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('in-flight jobs by type in /metrics', () => {
  let h: Harness;
  let app: FastifyInstance;
  const hold = gate();
  const started = gate();

  const metrics = createMetrics({ defaultMetrics: false });
  let refresher: Awaited<ReturnType<typeof startTestRefresher>>;

  beforeAll(async () => {
    h = await createHarness();
    refresher = await startTestRefresher(h, metrics);
    app = await buildTestServer(h, [], { metrics });
    // One slot, so a second job has to wait behind the held one.
    await h.startWorkers(
      {
        'test.demo': async () => {
          started.open();
          await hold.promise;
          return {};
        },
        'test.other': async () => ({}),
      },
      { concurrency: 1, globalConcurrency: 1 },
    );
  });
  afterAll(async () => {
    hold.open();
    await app?.close();
    await refresher?.close();
    await h?.close();
  });

  // What a scrape shows after the next periodic refresh.
  const scrape = async () => {
    await refresher.refresh();
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('counts held, queued and delayed jobs by type and state, and drops a type once its jobs finish', async () => {
    const demo = await h.queue.enqueue(testJob('test.demo', {}));
    await started.promise;
    const other = await h.queue.enqueue(testJob('test.other', {}));
    await h.queue.enqueue(testJob('test.other', {}), { delayMs: 3_600_000 });

    const during = await scrape();
    expect(during).toContain('# HELP beekeeper_jobs_in_flight');
    expect(inFlight(during, { type: 'test.demo', state: 'active' })).toBe(1);
    expect(inFlight(during, { type: 'test.other', state: 'waiting' })).toBe(1);
    expect(inFlight(during, { type: 'test.other', state: 'delayed' })).toBe(1);
    expect(inFlight(during, { type: 'test.other', state: 'active' })).toBeUndefined();

    hold.open();
    expect((await h.queue.waitUntilDone(demo.id, 10_000)).state).toBe('completed');
    expect((await h.queue.waitUntilDone(other.id, 10_000)).state).toBe('completed');

    const after = await scrape();
    expect(inFlight(after, { type: 'test.demo', state: 'active' }) ?? 0).toBe(0);
    expect(inFlight(after, { type: 'test.other', state: 'waiting' }) ?? 0).toBe(0);
    // The delayed job is still unfinished: the reset before each refresh must not lose it.
    expect(inFlight(after, { type: 'test.other', state: 'delayed' })).toBe(1);
    // The per-state totals agree with the by-type view.
    expect(after).toMatch(/beekeeper_jobs\{hub="local",class="background",state="completed"\} 2\n/);
  });
});
