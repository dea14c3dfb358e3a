// The bed of the pools-and-claims flows (claims-flow, claims-queue and claims-pools tests): the claims harness
// (support.ts) serving HTTP, with four pools on two hubs, warm and cold, ready before the first test.
import { expect } from 'vitest';
import type { ClusterPool } from '../../src/hive/pools/types.js';
import { IMAGE_SETS, poolRequest, startClaimsHarness, type ClaimsHarness } from './support.js';

/** The app's answer, its body parsed when it is JSON. */
export function flowApi(harness: () => ClaimsHarness) {
  return async function api<T = any>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: T; text: string }> {
    const h = harness();
    const res = await h.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
    const text = res.body;
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, body, text };
  };
}

/** Until the pool `ci/name` on `hub` passes `test` in the cache. */
export const poolWaiter =
  (harness: () => ClaimsHarness) => (hub: string, name: string, test: (p: ClusterPool) => boolean) =>
    harness().store.waitFor<ClusterPool, true>(
      'ClusterPool',
      { hub, namespace: 'ci', name },
      (p) => (p && test(p) ? true : undefined),
      { timeoutMs: 30_000 },
    );

/** The harness listening on a loopback port, with warm-east, warm-west, cold and line ready. */
export async function startFlowBed(): Promise<{ h: ClaimsHarness; base: string }> {
  const h = await startClaimsHarness();
  const api = flowApi(() => h);
  const poolWhere = poolWaiter(() => h);
  const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  try {
    await h.prerequisites();
    const pools = [
      poolRequest('hub-1', 'warm-east', { labels: { 'beekeeper.io/team': 'payments' } }),
      poolRequest('hub-2', 'warm-west', {
        size: 2,
        runningCount: 2,
        platform: { type: 'aws', region: 'eu-west-1', credentialsSecretRef: 'aws-creds' },
        imageSetName: IMAGE_SETS.v417.name,
        labels: { 'beekeeper.io/team': 'payments' },
      }),
      poolRequest('hub-1', 'cold', { runningCount: 0, claimLifetime: { default: '1h', maximum: '2h' } }),
      poolRequest('hub-2', 'line', { maxConcurrent: 1 }),
    ];
    for (const p of pools) {
      const res = await api('POST', '/v1/pools', p);
      expect(res.status, res.text).toBe(201);
    }
    await Promise.all([
      poolWhere('hub-1', 'warm-east', (p) => p.status?.ready === 1),
      poolWhere('hub-2', 'warm-west', (p) => p.status?.ready === 2),
      poolWhere('hub-1', 'cold', (p) => p.status?.standby === 1),
      poolWhere('hub-2', 'line', (p) => p.status?.ready === 1),
    ]);
  } catch (err) {
    await h.close(); // the test file's afterAll never sees a harness it was not given
    throw err;
  }
  return { h, base };
}
