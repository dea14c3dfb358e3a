// A ClusterClaim may have any name Kubernetes allows (253 characters, e.g. made with kubectl). Beekeeper's job and
// dedup ids for it stay within BullMQ's 200 characters, so releasing it works and the heartbeat reaper reaches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../src/hive/pools/labels.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import type { JobView } from '../../src/services/ports.js';
import { startClaimsHarness, type ClaimsHarness } from './support.js';

const MINUTE = 60_000;
let h: ClaimsHarness;
/** A DNS subdomain of 253 characters: the longest object name. */
const longName = (c: string) => [c.repeat(63), c.repeat(63), c.repeat(63), c.repeat(61)].join('.');

async function kubectlClaim(name: string, annotations: Record<string, string> = {}) {
  await h.store.create<ClusterClaim>('ClusterClaim', 'hub-1', {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterClaim',
    metadata: { name, namespace: 'ci', annotations },
    spec: { clusterPoolName: 'no-pool-yet' },
  });
  return h.store.waitFor<ClusterClaim, ClusterClaim>(
    'ClusterClaim',
    { hub: 'hub-1', namespace: 'ci', name },
    (c) => c,
    { timeoutMs: 10_000 },
  );
}

beforeAll(async () => {
  h = await startClaimsHarness();
  await h.prerequisites();
});
afterAll(async () => h?.close());

describe('claims with the longest names', () => {
  it('DELETE releases one and answers 202 with a job that can be fetched (was 422 after deleting the claim)', async () => {
    const name = longName('d');
    await kubectlClaim(name);
    const res = await h.app.inject({ method: 'DELETE', url: `/v1/claims/hub-1/ci/${name}` });
    expect(res.statusCode, res.body).toBe(202);
    const { job } = res.json<{ job: JobView }>();
    expect((await h.app.inject({ url: res.headers.location as string })).json()).toMatchObject({
      job: { id: job.id, type: 'claim.release' },
    });
  });

  it('a heartbeat timeout releases one', async () => {
    const name = longName('h');
    const ref = { hub: 'hub-1', namespace: 'ci', name };
    await kubectlClaim(name, { [HEARTBEAT_TIMEOUT_ANNOTATION]: '5m' });
    h.clock.advance(6 * MINUTE);
    await h.store.waitFor<ClusterClaim, true>(
      'ClusterClaim',
      ref,
      (c) => (!c || c.metadata.deletionTimestamp ? true : undefined),
      { timeoutMs: 20_000 },
    );
  });
});
