// Drill (issue 9, "Proof"; before it, the same key and body after a flush created a second claim): a claim and a
// cluster create sent with an Idempotency-Key, then FLUSHALL, then the same requests again. Each answers as the
// first time (same status, same ids and Location) and nothing new is created in Kubernetes; the same key with
// another body is still 422. Counted from the hub: the objects each request left, one expected per request.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { R } from '../../src/sim/client/index.js';
import { createInstallInputs } from './clusters.js';
import { report, retryUntilSeen, startDrill, STATE_NS, tally, until, type Drill } from './harness.js';
import { CLEAN, figures, OPERATIONS } from './queued-hibernates.js';

const NS = 'ci';
const claimBody = { pool: `east/${NS}/builds`, lifetime: '2h' };
const createBody = {
  hub: 'east',
  namespace: NS,
  name: 'made-once',
  baseDomain: 'example.com',
  platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
  imageSet: 'openshift-v4.16.3',
  pullSecretRef: 'pull-secret',
};
let drill: Drill;

beforeAll(async () => {
  drill = await startDrill();
  const kube = drill.kube();
  await createInstallInputs(kube, NS);
  // An empty pool: the claim waits for a cluster, which is all the drill needs of it.
  const pool = await retryUntilSeen(() =>
    drill.api('POST', '/v1/pools', {
      hub: 'east',
      namespace: NS,
      name: 'builds',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size: 0,
    }),
  );
  expect(pool.status, JSON.stringify(pool.body)).toBe(201);
}, 120_000);

afterAll(async () => drill?.close());

/** What the two requests left in Kubernetes: one key per object, by the request that made it. */
async function made(): Promise<string[]> {
  const kube = drill.kube();
  const claims = (await kube.list(R.clusterClaim, NS)).items.map(() => 'claim');
  const clusters = (await kube.list(R.clusterDeployment, NS)).items.map(() => 'create');
  const creates = (await kube.list(OPERATIONS, STATE_NS)).items
    .filter((o) => o.spec.type === 'cluster.create')
    .map(() => 'create-operation');
  return [...claims, ...clusters, ...creates];
}

describe('drill: Idempotency-Key retries after FLUSHALL', () => {
  it('answer the first answer, create nothing new, and the key with another body is still 422', async () => {
    const claimKey = { 'idempotency-key': 'drill-claim-1' };
    const createKey = { 'idempotency-key': 'drill-create-1' };
    const claim = await retryUntilSeen(() =>
      drill.api<{ id: string; name: string }>('POST', '/v1/claims', claimBody, claimKey),
    );
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    const create = await drill.api<{ job: JobView }>('POST', '/v1/clusters', createBody, createKey);
    expect(create.status, JSON.stringify(create.body)).toBe(202);
    // The informers behind the mark index have seen both objects before Redis forgets.
    await until('both objects exist', async () => (await made()).length === 3, 30_000);
    const before = await made();

    await drill.redis.flushAll();

    const claimAgain = await drill.api<{ id: string; name: string }>('POST', '/v1/claims', claimBody, claimKey);
    const createAgain = await drill.api<{ job: JobView }>('POST', '/v1/clusters', createBody, createKey);
    const otherClaim = await drill.api<{ errors?: unknown }>(
      'POST',
      '/v1/claims',
      { ...claimBody, lifetime: '3h' },
      claimKey,
    );
    const otherCreate = await drill.api<{ errors?: unknown }>(
      'POST',
      '/v1/clusters',
      { ...createBody, name: 'made-twice' },
      createKey,
    );
    const after = await made();

    const requests = tally(['claim', 'create', 'create-operation'], after);
    report('idempotency-after-flush', requests);
    console.log(
      `drill idempotency-after-flush: objects per request ${figures(requests)}; retries answered ${claimAgain.status} (same claim: ${claimAgain.body.id === claim.body.id}) ` +
        `and ${createAgain.status} (same job: ${createAgain.body.job?.id === create.body.job.id}); another body answered ${otherClaim.status} and ${otherCreate.status}`,
    );
    expect(claimAgain.status, JSON.stringify(claimAgain.body)).toBe(201);
    expect(claimAgain.body.id).toBe(claim.body.id);
    expect(claimAgain.headers.get('location')).toBe(claim.headers.get('location'));
    expect(claimAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(createAgain.status, JSON.stringify(createAgain.body)).toBe(202);
    expect(createAgain.body.job.id).toBe(create.body.job.id);
    expect(createAgain.headers.get('location')).toBe(create.headers.get('location'));

    for (const other of [otherClaim, otherCreate]) {
      expect(other.status, JSON.stringify(other.body)).toBe(422);
      expect(other.body.errors).toEqual([
        { field: 'Idempotency-Key', reason: 'reused with a different route or body' },
      ]);
    }
    expect(after.sort()).toEqual(before.sort());
    expect(requests, JSON.stringify(requests.examples)).toMatchObject({ expected: 3, done: 3, ...CLEAN });
  }, 120_000);
});
