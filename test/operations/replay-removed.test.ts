// Found by the faults-10pct drill: a hibernate whose up-front write failed answered 503 and removed its Operation;
// the caller's retry with the same Idempotency-Key came while the api's Operation informer was down (dropped watch,
// failed relists) and still held the removed Operation, so the retry was answered 202 with that Operation's job id:
// a job that never runs (404 forever) and a hibernate that never happens. A replay now answers only an Operation
// the hub still has; a removed one lets the retry run as the new request it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { adoptCluster, getJob, HUB, startBed, STATE_NS, type Bed } from './support.js';

let bed: Bed;

beforeAll(async () => {
  bed = await startBed();
  await adoptCluster(bed, 'fleet', 'shaky');
}, 120_000);

afterAll(async () => bed?.close());

const hibernate = () =>
  bed.app.inject({
    method: 'POST',
    url: `/v1/clusters/${HUB}/fleet/shaky/hibernate`,
    headers: { 'idempotency-key': 'hibernate-shaky' },
  });

describe('a retry after a refused 202 request, while the Operation informer lags', () => {
  it("is not answered with the removed Operation's job: it is accepted again, with a job that exists", async () => {
    const faults = bed.sim.hubs[0]!.server.faults;
    // The power change's write waits a moment, then fails: time for the informer to see the Operation first.
    const failingWrite = [{ verb: 'patch' as const, resource: 'clusterdeployments', ms: 1500 }];
    faults.set({
      latency: failingWrite,
      errors: [{ verb: 'patch', resource: 'clusterdeployments', rate: 1, code: 503, retryAfterSeconds: 1 }],
    });
    const first = hibernate();
    let cached: string[] = [];
    for (let i = 0; i < 50 && cached.length === 0; i++) {
      cached = bed.api.store
        .cachedList('Operation', { hub: HUB, namespace: STATE_NS })
        .map((o) => o.object.metadata.name);
      if (cached.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(cached).toHaveLength(1);
    // Now the informer loses its watch and cannot list again: it keeps what it had.
    faults.set({
      latency: failingWrite,
      errors: [
        { verb: 'patch', resource: 'clusterdeployments', rate: 1, code: 503, retryAfterSeconds: 1 },
        { verb: 'watch', resource: 'operations', rate: 1, code: 500 },
        { verb: 'list', resource: 'operations', rate: 1, code: 500 },
      ],
      watchDrops: { afterMs: 0 },
    });
    expect((await first).statusCode).toBe(503);

    faults.set({
      errors: [
        { verb: 'watch', resource: 'operations', rate: 1, code: 500 },
        { verb: 'list', resource: 'operations', rate: 1, code: 500 },
      ],
    });
    const retry = await hibernate();
    faults.clear();
    expect(retry.statusCode, retry.body).toBe(202);
    const id = retry.json<{ job: JobView }>().job.id;
    expect(id).not.toBe(cached[0]);
    expect((await getJob(bed, id)).status).toBe(200);
  }, 60_000);
});
