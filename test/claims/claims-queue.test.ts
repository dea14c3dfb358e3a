// Claims that wait, end to end (flow-bed.ts): FIFO queue positions, paging, long polls, estimates from the pool's
// history, release.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../src/services/claims/claim-view.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { createLogger } from '../../src/logger.js';
import { createClaimService } from '../../src/services/claims/claim-service.js';
import { flowApi, poolWaiter, startFlowBed } from './flow-bed.js';
import { poolRequest, type ClaimsHarness } from './support.js';

let h: ClaimsHarness;
let base: string;
const api = flowApi(() => h);
const poolWhere = poolWaiter(() => h);

beforeAll(async () => {
  ({ h, base } = await startFlowBed());
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('claims', () => {
  it('serves many claims on a small pool FIFO with correct queue positions', async () => {
    const order: string[] = [];
    const off = h.store.onChange<ClusterClaim>('ClusterClaim', (hub, _type, c) => {
      if (hub === 'hub-2' && c.spec.clusterPoolName === 'line' && c.spec.namespace && !order.includes(c.metadata.name))
        order.push(c.metadata.name);
    });
    const names = ['line-a', 'line-b', 'line-c', 'line-d'];
    for (const name of names) {
      expect((await api('POST', '/v1/claims', { pool: 'hub-2/ci/line', name })).status).toBe(201);
      h.clock.advance(1000); // Hive orders by creationTimestamp, which has one-second resolution
    }
    await h.store.waitFor('ClusterClaim', { hub: 'hub-2', namespace: 'ci', name: 'line-d' }, (c) => c, {
      timeoutMs: 5000,
    });
    const { body } = await api<{ items: ClaimView[] }>('GET', '/v1/claims?pool=hub-2/ci/line');
    const pending = body.items.filter((c) => c.phase === 'Pending');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect((await api('GET', '/metrics')).text).toMatch(
      /beekeeper_claims_pending\{hub="hub-2",namespace="ci",pool="line"\} [1-4]\n/,
    );
    pending.forEach((c, i) => expect(c.queue).toEqual({ position: i + 1, ahead: i }));
    expect(pending.at(-1)!.name).toBe('line-d');
    const pool = await api('GET', '/v1/pools/hub-2/ci/line');
    expect(pool.body.queue).toEqual(pending.map((c) => c.id));

    for (const name of names) {
      const running = await api<ClaimView>('GET', `/v1/claims/hub-2/ci/${name}?wait=30`);
      expect(running.body.phase, running.text).toBe('Running');
    }
    off();
    expect(order).toEqual(names);
  }, 60_000);

  it('lists claims a page at a time, oldest first, with filters', async () => {
    const first = await api<{ items: ClaimView[]; nextCursor?: string; total: number }>(
      'GET',
      '/v1/claims?pool=hub-2/ci/line&limit=3',
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.items.map((c) => c.name)).toEqual(['line-a', 'line-b', 'line-c']);
    const next = await api<{ items: ClaimView[]; nextCursor?: string; total: number }>(
      'GET',
      `/v1/claims?pool=hub-2/ci/line&limit=3&cursor=${first.body.nextCursor}`,
    );
    expect(next.body).toMatchObject({ total: 4, items: [expect.objectContaining({ name: 'line-d' })] });
    expect(next.body.nextCursor).toBeUndefined();
    const running = await api<{ items: ClaimView[]; total: number }>(
      'GET',
      '/v1/claims?hub=hub-2&namespace=ci&phase=Running&limit=1',
    );
    expect(running.body.items).toHaveLength(1);
    expect(running.body.total).toBeGreaterThanOrEqual(4);
    expect(running.body.items[0]!.phase).toBe('Running');
    const badCursor = await api('GET', '/v1/claims?cursor=nonsense');
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.errors).toEqual([{ field: 'cursor', reason: 'not a cursor this API returned' }]);
    expect((await api('GET', '/v1/claims?hub=nowhere')).status).toBe(422);
    expect((await api('GET', '/v1/claims?limit=0')).status).toBe(400);
  });

  it('answers a long poll when the wait ends, with the claim still pending and why', async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-1', 'nothing', { size: 0, runningCount: 0 }))).status).toBe(
      201,
    );
    await poolWhere('hub-1', 'nothing', (p) => p.status !== undefined);
    expect((await api('POST', '/v1/claims', { pool: 'hub-1/ci/nothing', name: 'patient' })).status).toBe(201);
    const res = await fetch(`${base}/v1/claims/hub-1/ci/patient?wait=1`);
    const view = (await res.json()) as ClaimView;
    // Hive builds a cluster for the waiting claim (its drift counts pending claims); an install outlasts the wait.
    expect(view).toMatchObject({ phase: 'Pending', reason: 'ClustersInstalling', queue: { position: 1, ahead: 0 } });
    expect(view.message).toMatch(
      /^no ready cluster; (nothing-\w+ is being installed for this claim \(installing, .+\)|Hive is creating a cluster for this claim); no estimate yet: no install in this pool has finished$/,
    );
    expect((await api('DELETE', '/v1/claims/hub-1/ci/patient')).status).toBe(202);
  });

  it("estimates time to ready from the pool's history in Kubernetes, so a fresh service instance knows it too", async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-2', 'builds', { size: 0, runningCount: 0 }))).status).toBe(
      201,
    );
    await poolWhere('hub-2', 'builds', (p) => p.status !== undefined);
    expect((await api('POST', '/v1/claims', { pool: 'hub-2/ci/builds', name: 'first-build' })).status).toBe(201);
    const first = await api<ClaimView>('GET', '/v1/claims/hub-2/ci/first-build?wait=30');
    expect(first.body.phase, first.text).toBe('Running');

    // As after a restart: a new instance with nothing in memory, only the informer cache.
    const fresh = createClaimService({
      store: h.store,
      queue: h.queue,
      operations: h.operations,
      clock: h.clock,
      log: createLogger({ level: 'silent' }),
    });
    const second = await fresh.create({ pool: 'hub-2/ci/builds', name: 'second-build' });
    // Hive builds a cluster for it (NoReadyCluster until the ClusterDeployment appears, then ClustersInstalling).
    expect(second.phase).toBe('Pending');
    expect(second.eta?.basis).toMatch(/^the last install in this pool took /);
    expect((await api('DELETE', '/v1/claims/hub-2/ci/second-build')).status).toBe(202);
    expect((await api('DELETE', '/v1/claims/hub-2/ci/first-build')).status).toBe(202);
  });

  it("releases at once from the caller's view while the deprovision continues as a job", async () => {
    const res = await api('DELETE', '/v1/claims/hub-2/ci/line-a');
    expect(res.status).toBe(202);
    expect(res.body.claim.phase).toBe('Releasing');
    expect(res.body.job.type).toBe('claim.release');
    const job = await h.queue.waitUntilDone(res.body.job.id, 20_000);
    expect(job.state).toBe('completed');
    expect(job.steps.map((s) => s.step)).toContain('Released');
    expect((await api('GET', '/v1/claims/hub-2/ci/line-a')).status).toBe(404);
  });
});
