// What the cluster, pool and claim views say about the same cluster: one name for its console URL everywhere, no
// "problem" for a condition that is simply the state the cluster is in, and list items that sum up rather than
// carry every condition or every cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterPool } from '../../src/hive/pools/types.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createBody, HUB, prerequisites, runJob, startBed, type Bed } from './support.js';

let bed: Bed;
const ns = 'views';
const url = (name: string, action = '') => `/v1/clusters/${HUB}/${ns}/${name}${action}`;
const get = async (path: string) => (await bed.app.inject({ method: 'GET', url: path })).json();

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
  expect((await runJob(bed.app, 'POST', '/v1/clusters', createBody(ns, 'seen'))).state).toBe('completed');
  // Hive runs its resume sequence once after the install before the cluster reports Running.
  await bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: HUB, namespace: ns, name: 'seen' },
    (cd) => (cd?.status?.powerState === 'Running' ? true : undefined),
    { timeoutMs: 20_000 },
  );
}, 60_000);
afterAll(async () => bed?.close());

describe('cluster views', () => {
  it('a running cluster reports no problem: Hibernating=False is its state, not a fault', async () => {
    const view = await get(url('seen'));
    const hibernating = view.conditions.find((c: { type: string }) => c.type === 'Hibernating');
    expect(hibernating).toMatchObject({ status: 'False', reason: 'ResumingOrRunning', problem: false });
    expect(view.conditions.filter((c: { problem: boolean }) => c.problem)).toEqual([]);
    expect(view).toMatchObject({ phase: 'Running', problems: [] });
  });

  it('a hibernated cluster reports no problem either: Ready=False and Unreachable=True are what hibernation is', async () => {
    expect((await runJob(bed.app, 'POST', url('seen', '/hibernate'))).state).toBe('completed');
    // Hive finds the stopped cluster's API unreachable (docs/troubleshooting.md).
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: HUB, namespace: ns, name: 'seen' },
      (cd) => (cd?.status?.conditions?.some((c) => c.type === 'Unreachable' && c.status === 'True') ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const view = await get(url('seen'));
    expect(view.conditions.find((c: { type: string }) => c.type === 'Unreachable')).toMatchObject({
      status: 'True',
      problem: false,
    });
    expect(view.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      problem: false,
    });
    expect(view.conditions.filter((c: { problem: boolean }) => c.problem)).toEqual([]);
    expect(view).toMatchObject({ phase: 'Hibernating', problems: [] });
    expect((await runJob(bed.app, 'POST', url('seen', '/resume'))).state).toBe('completed');
  });

  it('a repeated GET answers the same bytes and type; ?raw=true adds the object and leaves the plain answer alone', async () => {
    const once = await bed.app.inject({ method: 'GET', url: url('seen') });
    const raw = await bed.app.inject({ method: 'GET', url: `${url('seen')}?raw=true` });
    const again = await bed.app.inject({ method: 'GET', url: url('seen') });
    expect(once.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe(once.headers['content-type']);
    expect(once.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.body).toBe(once.body);
    expect(once.json()).not.toHaveProperty('raw');
    expect(raw.json().raw.metadata.name).toBe('seen');
    expect({ ...raw.json(), raw: undefined }).toEqual({ ...once.json(), raw: undefined });
  });

  it("list items carry the problems, not every condition; one cluster's GET keeps them all", async () => {
    const page = await get(`/v1/clusters?hub=${HUB}&namespace=${ns}`);
    const item = page.items.find((c: { name: string }) => c.name === 'seen');
    expect(item).toMatchObject({ name: 'seen', problems: [] });
    expect(item).not.toHaveProperty('conditions');
    expect((await get(url('seen'))).conditions.length).toBeGreaterThan(3);
  });

  it("the console URL has one name on clusters, their credentials and claims: Hive's webConsoleURL", async () => {
    const cluster = await get(url('seen'));
    expect(cluster.webConsoleURL).toMatch(/^https:\/\/console-openshift-console\.apps\.seen\./);
    expect((await get(url('seen', '/credentials'))).webConsoleURL).toBe(cluster.webConsoleURL);

    const pool = await bed.app.inject({
      method: 'POST',
      url: '/v1/pools',
      payload: {
        hub: HUB,
        namespace: ns,
        name: 'view-pool',
        platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
        baseDomain: 'example.com',
        imageSetName: 'openshift-v4.16.3',
        pullSecretRef: 'pull-secret',
        size: 1,
        runningCount: 1,
      },
    });
    expect(pool.statusCode, pool.body).toBe(201);
    await bed.system.store.waitFor<ClusterPool, true>(
      'ClusterPool',
      { hub: HUB, namespace: ns, name: 'view-pool' },
      (p) => (p?.status?.ready === 1 ? true : undefined),
      { timeoutMs: 30_000 },
    );
    const claim = (
      await bed.app.inject({ method: 'POST', url: '/v1/claims?wait=60', payload: { pool: `${HUB}/${ns}/view-pool` } })
    ).json();
    expect(claim.phase, JSON.stringify(claim)).toBe('Running');
    const claimed = await get(`/v1/clusters/${claim.cluster.id}`);
    expect(claimed.webConsoleURL).toBeDefined();
    expect(claim.cluster.webConsoleURL).toBe(claimed.webConsoleURL);
    expect((await get(`/v1/claims/${claim.id}/credentials`)).webConsoleURL).toBe(claimed.webConsoleURL);

    // Pools likewise: the list sums the pool's clusters up by state; one pool's GET lists them.
    const pools = await get(`/v1/pools?hub=${HUB}&namespace=${ns}`);
    expect(pools.items[0]).toMatchObject({
      id: `${HUB}/${ns}/view-pool`,
      clustersByState: expect.objectContaining({ claimed: 1 }),
    });
    expect(pools.items[0]).not.toHaveProperty('clusters');
    expect((await get(`/v1/pools/${HUB}/${ns}/view-pool`)).clusters.length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("?raw=true answers the ClusterDeployment without the server's write bookkeeping, as `kubectl get -o yaml` shows it", async () => {
    const ref = { hub: HUB, namespace: ns, name: 'seen' };
    // As `kubectl apply` leaves it: its copy of the applied object as an annotation, beside the owner's own.
    await bed.system.store.mergePatch('ClusterDeployment', ref, {
      metadata: {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"ClusterDeployment","spec":{}}',
          'example.com/owner': 'payments',
        },
      },
    });
    await bed.system.store.waitFor('ClusterDeployment', ref, (cd) => cd?.metadata.annotations?.['example.com/owner'], {
      timeoutMs: 5000,
    });
    const view = await get(url('seen', '?raw=true'));
    expect(view).toMatchObject({ name: 'seen', phase: 'Running', raw: { spec: { clusterName: 'seen' } } });
    expect(view.raw.metadata.annotations['example.com/owner']).toBe('payments');
    expect(view.raw.metadata.annotations).not.toHaveProperty(['kubectl.kubernetes.io/last-applied-configuration']);
    expect(view.raw.metadata).not.toHaveProperty('managedFields');
    // The hub still has both: only the cached copy leaves them out.
    const live = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', ref);
    expect(live?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBeDefined();
    expect(live?.metadata).toHaveProperty('managedFields');
  });
});
