import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsPool, condition, createPrerequisites, waitFor } from './sim-helpers.js';

const HOUR = 3_600_000;

describe('simulated ClusterClaim', () => {
  let sim: Simulator;
  let client: KubeClient;
  let clock: TestClock;
  beforeAll(async () => {
    clock = createTestClock();
    sim = await startSimulator({ speed: 2000, clock });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'claims');
    await client.create(
      R.clusterPool,
      awsPool('claims', 'pool', {
        size: 1,
        runningCount: 1,
        claimLifetime: { default: '2h', maximum: '4h' },
      }),
    );
    await waitFor(client, R.clusterPool, 'claims', 'pool', (p) => p?.status?.ready === 1);
  });
  afterAll(() => sim?.close());

  it('gives a claim the oldest running cluster, with hive-claim-owner RBAC for its subjects', async () => {
    const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }];
    await client.create(R.clusterClaim, {
      metadata: { name: 'alice', namespace: 'claims' },
      spec: { clusterPoolName: 'pool', subjects, lifetime: '8h' },
    });
    const claim = await waitFor(
      client,
      R.clusterClaim,
      'claims',
      'alice',
      (c) => condition(c, 'Pending')?.reason === 'ClusterClaimed' && condition(c, 'ClusterRunning')?.status === 'True',
    );
    expect(condition(claim, 'Pending')).toMatchObject({ status: 'False', reason: 'ClusterClaimed' });
    expect(condition(claim, 'ClusterRunning')).toMatchObject({ status: 'True', reason: 'Running' });
    // 8h asked, capped at the pool maximum of 4h.
    expect(claim!.status.lifetime).toBe('4h0m0s');
    expect(claim!.metadata.finalizers).toContain('hive.openshift.io/claim');

    const ns = claim!.spec.namespace as string;
    const cd = await client.get(R.clusterDeployment, ns, ns);
    expect(cd.spec.clusterPoolRef).toMatchObject({ poolName: 'pool', claimName: 'alice' });
    expect(cd.spec.clusterPoolRef.claimedTimestamp).toBeTruthy();
    expect(cd.spec.powerState).toBe('Running');
    expect(cd.status.apiURL).toBe(`https://api.${ns}.example.com:6443`);

    const role = await client.get(R.role, ns, 'hive-claim-owner');
    expect(role.rules).toContainEqual({ apiGroups: ['hive.openshift.io'], resources: ['*'], verbs: ['*'] });
    expect(role.rules[1].resourceNames).toEqual([
      cd.spec.clusterMetadata.adminKubeconfigSecretRef.name,
      cd.spec.clusterMetadata.adminPasswordSecretRef.name,
      `${ns}-metadata-json`,
    ]);
    const binding = await client.get(R.roleBinding, ns, 'hive-claim-owner');
    expect(binding.subjects).toEqual(subjects);
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'hive-claim-owner' });

    // The pool replaces the claimed cluster.
    await waitFor(client, R.clusterPool, 'claims', 'pool', (p) => p?.status?.size === 1 && p.status.ready === 1);
  });

  it('tells a claim on an exhausted pool that no clusters are ready', async () => {
    await client.mergePatch(R.clusterPool, 'claims', 'pool', { spec: { size: 0, maxSize: 2 } });
    await client.create(R.clusterClaim, {
      metadata: { name: 'bob', namespace: 'claims' },
      spec: { clusterPoolName: 'pool' },
    });
    const claim = await waitFor(
      client,
      R.clusterClaim,
      'claims',
      'bob',
      (c) => condition(c, 'Pending')?.reason === 'NoClusters',
    );
    expect(condition(claim, 'Pending')).toMatchObject({
      status: 'True',
      message: 'No clusters in pool are ready to be claimed',
    });
  });

  it('deletes the claim when its lifetime runs out, then removes and deprovisions its cluster', async () => {
    const claim = await client.get(R.clusterClaim, 'claims', 'alice');
    const ns = claim.spec.namespace as string;
    clock.advance(4 * HOUR + 1000);
    await waitFor(
      client,
      R.clusterDeployment,
      ns,
      ns,
      (cd) => cd === undefined || Boolean(cd.metadata.deletionTimestamp),
    );
    await waitFor(client, R.clusterClaim, 'claims', 'alice', (c) => c === undefined);
    expect(await client.tryGet(R.role, ns, 'hive-claim-owner')).toBeUndefined();
    expect(await client.tryGet(R.clusterDeployment, ns, ns)).toBeUndefined();
    // clusterpoolnamespace removes the emptied pool namespace once it is old enough.
    await waitFor(client, R.namespace, undefined, ns, (n) => n === undefined || Boolean(n.metadata.deletionTimestamp));
  });

  it('cross-links a claim that already names a cluster only once that cluster is assignable (the pool writes the CD)', async () => {
    await client.create(R.clusterPool, awsPool('claims', 'standby', { size: 1, runningCount: 0 }));
    await waitFor(client, R.clusterPool, 'claims', 'standby', (p) => p?.status?.standby === 1);
    const [cd] = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=standby' })
    ).items;
    const ns = cd!.metadata.name as string;
    const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'carol' }];
    await client.create(R.clusterClaim, {
      metadata: { name: 'carol', namespace: 'claims' },
      spec: { clusterPoolName: 'standby', namespace: ns, subjects },
    });
    // A hibernated cluster is not assignable: nothing is written to it until the pool resumes it.
    await client.mergePatch(R.clusterPool, 'claims', 'standby', { spec: { runningCount: 1 } });
    const claimed = await waitFor(client, R.clusterDeployment, ns, ns, (o) =>
      Boolean(o?.spec?.clusterPoolRef?.claimName),
    );
    expect(claimed!.status.powerState).toBe('Running');
    expect(claimed!.spec.clusterPoolRef).toMatchObject({ claimName: 'carol' });
    const claim = await waitFor(
      client,
      R.clusterClaim,
      'claims',
      'carol',
      (c) => condition(c, 'Pending')?.reason === 'ClusterClaimed',
    );
    expect(condition(claim, 'ClusterRunning')).toMatchObject({ status: 'True', reason: 'Running' });
  });

  it("deleting a claim that names someone else's cluster leaves that cluster and its owner RBAC alone", async () => {
    const carol = await client.get(R.clusterClaim, 'claims', 'carol');
    const ns = carol.spec.namespace as string;
    await waitFor(client, R.roleBinding, ns, 'hive-claim-owner', Boolean);
    // A claim deleted while it still names carol's cluster (the finalizer is preset so Hive's cleanup runs).
    await client.create(R.clusterClaim, {
      metadata: { name: 'mallory', namespace: 'claims', finalizers: ['hive.openshift.io/claim'] },
      spec: { clusterPoolName: 'standby', namespace: ns },
    });
    await client.delete(R.clusterClaim, 'claims', 'mallory');
    await waitFor(client, R.clusterClaim, 'claims', 'mallory', (c) => c === undefined);
    expect(await client.tryGet(R.roleBinding, ns, 'hive-claim-owner')).toBeTruthy();
    expect(await client.tryGet(R.role, ns, 'hive-claim-owner')).toBeTruthy();
    const cd = await client.get(R.clusterDeployment, ns, ns);
    expect(cd.metadata.annotations?.['hive.openshift.io/remove-cluster-from-pool']).toBeUndefined();
    expect(cd.metadata.deletionTimestamp).toBeUndefined();
  });
});
