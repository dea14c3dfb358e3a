import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsPool, condition, createPrerequisites, recordChanges, waitFor } from './sim-helpers.js';

describe('simulated ClusterPool', () => {
  let sim: Simulator;
  let client: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ speed: 2000 });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'pools');
  });
  afterAll(() => sim?.close());

  it('fills a pool of 3 with clusters named and labelled as Hive does, one kept running', async () => {
    await client.create(R.clusterPool, awsPool('pools', 'team', { size: 3, runningCount: 1 }));
    const pool = await waitFor(
      client,
      R.clusterPool,
      'pools',
      'team',
      (p) => p?.status?.size === 3 && p.status.ready === 1 && p.status.standby === 2,
    );
    expect(condition(pool, 'MissingDependencies')).toMatchObject({ status: 'False', reason: 'Verified' });
    expect(condition(pool, 'AllClustersCurrent')).toMatchObject({
      status: 'True',
      reason: 'ClusterDeploymentsCurrent',
      message: 'All unassigned ClusterDeployments match the pool configuration',
    });
    expect(pool!.metadata.finalizers).toContain('hive.openshift.io/clusters');

    const cds = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=team' })
    ).items;
    expect(cds).toHaveLength(3);
    for (const cd of cds) {
      expect(cd.metadata.name).toMatch(/^team-[a-z0-9]{5}$/);
      expect(cd.metadata.namespace).toBe(cd.metadata.name);
      expect(cd.spec.clusterName).toBe(cd.metadata.name);
      expect(cd.metadata.labels['hive.openshift.io/clusterpool-namespace']).toBe('pools');
      expect(cd.metadata.annotations['hive.openshift.io/cluster-pool-spec-hash']).toMatch(/^[0-9a-f]{8}$/);
      expect(cd.spec.clusterPoolRef).toEqual({ namespace: 'pools', poolName: 'team' });
      const ns = await client.get(R.namespace, undefined, cd.metadata.name);
      expect(ns.metadata.labels['hive.openshift.io/cluster-pool-name']).toBe('team');
      const secrets = (await client.list(R.secret, cd.metadata.namespace)).items.map((s) => s.metadata.name);
      expect(secrets).toEqual(
        expect.arrayContaining([
          `${cd.metadata.name}-install-config`,
          `${cd.metadata.name}-pull-secret`,
          `${cd.metadata.name}-aws-creds`,
          `${cd.metadata.name}-metadata-json`,
        ]),
      );
      expect(await client.get(R.machinePool, cd.metadata.namespace, `${cd.metadata.name}-worker`)).toBeTruthy();
    }
    // runningCount 1: the oldest is told to run, the other two to hibernate.
    const desired = cds.map((cd) => cd.spec.powerState).sort();
    expect(desired).toEqual(['Hibernating', 'Hibernating', 'Running']);
    expect(cds.filter((cd) => cd.status.powerState === 'Running')).toHaveLength(1);
  });

  it('mirrors pool-admin RoleBindings into every cluster namespace of the pool', async () => {
    const subjects = [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'pool-admins' }];
    await client.create(R.roleBinding, {
      metadata: { name: 'admins', namespace: 'pools' },
      subjects,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'hive-cluster-pool-admin' },
    });
    await client.mergePatch(R.clusterPool, 'pools', 'team', { metadata: { labels: { touched: 'yes' } } }); // wake the pool
    const cds = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=team' })
    ).items;
    for (const cd of cds) {
      const binding = await waitFor(
        client,
        R.roleBinding,
        cd.metadata.namespace,
        'hive-cluster-pool-admin-binding',
        Boolean,
      );
      expect(binding!.subjects).toEqual(subjects);
      expect(binding!.roleRef).toMatchObject({ kind: 'ClusterRole', name: 'hive-cluster-pool-admin' });
    }
  });

  it('reports missing dependencies and creates nothing until they exist', async () => {
    await client.create(
      R.clusterPool,
      awsPool('pools', 'broken', { size: 1, imageSetRef: { name: 'no-such-imageset' } }),
    );
    const pool = await waitFor(
      client,
      R.clusterPool,
      'pools',
      'broken',
      (p) => condition(p, 'MissingDependencies')?.status === 'True',
    );
    expect(condition(pool, 'MissingDependencies')).toMatchObject({ reason: 'Missing' });
    expect(condition(pool, 'MissingDependencies')!.message).toBe(
      'cluster image set: clusterimagesets.hive.openshift.io "no-such-imageset" not found',
    );
    const cds = await client.list(R.clusterDeployment, undefined, {
      labelSelector: 'hive.openshift.io/clusterpool-name=broken',
    });
    expect(cds.items).toHaveLength(0);
  });

  it('leaves MissingDependencies unchecked while it has no cluster to add', async () => {
    await client.create(
      R.clusterPool,
      awsPool('pools', 'empty', { size: 0, imageSetRef: { name: 'no-such-imageset' } }),
    );
    const pool = await waitFor(
      client,
      R.clusterPool,
      'pools',
      'empty',
      (p) => condition(p, 'CapacityAvailable')?.status === 'True',
    );
    expect(condition(pool, 'MissingDependencies')).toMatchObject({ status: 'Unknown', reason: 'Initialized' });
  });

  it('asks unclaimed clusters that cannot hibernate to hibernate all the same (they report Unsupported)', async () => {
    await client.create(R.secret, {
      metadata: { name: 'azure-creds', namespace: 'pools' },
      data: { 'osServicePrincipal.json': 'e30=' },
    });
    const pool = awsPool('pools', 'azure', {
      size: 1,
      runningCount: 0,
      annotations: { 'hive.openshift.io/infra-disabled': 'true' },
    });
    pool.spec.platform = {
      azure: { region: 'eastus', baseDomainResourceGroupName: 'rg', credentialsSecretRef: { name: 'azure-creds' } },
    };
    await client.create(R.clusterPool, pool);
    await waitFor(client, R.clusterPool, 'pools', 'azure', (p) => p?.status?.ready === 1);
    const [cd] = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=azure' })
    ).items;
    expect(cd!.spec.powerState).toBe('Hibernating');
    expect(cd!.status.powerState).toBe('Running');
    expect(condition(cd, 'Hibernating')).toMatchObject({
      status: 'False',
      reason: 'Unsupported',
      message: 'Infrastructure disabled by annotation',
    });
    await client.mergePatch(R.clusterPool, 'pools', 'azure', { spec: { size: 0 } });
  });

  it('stops at maxSize with CapacityAvailable=False/MaxCapacity', async () => {
    await client.create(R.clusterPool, awsPool('pools', 'capped', { size: 3, maxSize: 2 }));
    const pool = await waitFor(
      client,
      R.clusterPool,
      'pools',
      'capped',
      (p) => condition(p, 'CapacityAvailable')?.status === 'False',
    );
    expect(condition(pool, 'CapacityAvailable')).toMatchObject({ reason: 'MaxCapacity' });
    const cds = await client.list(R.clusterDeployment, undefined, {
      labelSelector: 'hive.openshift.io/clusterpool-name=capped',
    });
    expect(cds.items).toHaveLength(2);
  });

  it('replaces clusters made stale by a pool spec change, one at a time', async () => {
    await client.create(R.clusterImageSet, {
      metadata: { name: 'openshift-v4.17.9' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
    });
    const old = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=team' })
    ).items.map((cd) => cd.metadata.name);
    const deleting = new Set<string>();
    let mostAtOnce = 0;
    const watch = client.watch(R.clusterDeployment, undefined, {
      onEvent(type, cd) {
        if (cd.metadata.labels?.['hive.openshift.io/clusterpool-name'] !== 'team') return;
        if (type === 'DELETED') deleting.delete(cd.metadata.name);
        else if (cd.metadata.deletionTimestamp) deleting.add(cd.metadata.name);
        mostAtOnce = Math.max(mostAtOnce, deleting.size);
      },
      onGone() {},
    });
    await client.mergePatch(R.clusterPool, 'pools', 'team', { spec: { imageSetRef: { name: 'openshift-v4.17.9' } } });
    const stale = await waitFor(
      client,
      R.clusterPool,
      'pools',
      'team',
      (p) => condition(p, 'AllClustersCurrent')?.status === 'False',
    );
    expect(condition(stale, 'AllClustersCurrent')).toMatchObject({ reason: 'SomeClusterDeploymentsStale' });
    // Hive names the stale CDs still in the pool (not the one it just deleted), sorted.
    const named = /^Some unassigned ClusterDeployments do not match the pool configuration: (.+)$/
      .exec(condition(stale, 'AllClustersCurrent')!.message)?.[1]
      ?.split(', ');
    expect(named).toEqual([...named!].sort());
    expect(named!.length).toBeGreaterThan(0);
    expect(named!.every((n) => old.includes(n))).toBe(true);
    expect(named!.length).toBeLessThan(old.length);
    await waitFor(
      client,
      R.clusterPool,
      'pools',
      'team',
      (p) => condition(p, 'AllClustersCurrent')?.status === 'True' && p!.status.size === 3 && p!.status.ready === 1,
      30_000,
    );
    watch.stop();
    expect(mostAtOnce).toBe(1);
    const now = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=team' })
    ).items;
    const current = now.filter((cd) => !cd.metadata.deletionTimestamp);
    expect(current.map((cd) => cd.metadata.name).filter((n) => old.includes(n))).toEqual([]);
    expect(current.every((cd) => cd.spec.provisioning.imageSetRef.name === 'openshift-v4.17.9')).toBe(true);
  });

  it('shrinks when size drops, and deletes all unclaimed clusters before releasing a deleted pool', async () => {
    await client.mergePatch(R.clusterPool, 'pools', 'team', { spec: { size: 1 } });
    await waitFor(client, R.clusterPool, 'pools', 'team', (p) => p?.status?.size === 1);
    const deletion = recordChanges(client, R.clusterPool, 'pools', 'team', (p) => {
      const c = condition(p, 'DeletionPossible');
      return c && `${c.status}/${c.reason}/${c.message.replace(/: .*/, ': <names>')}`;
    });
    await client.delete(R.clusterPool, 'pools', 'team');
    await waitFor(client, R.clusterPool, 'pools', 'team', (p) => p === undefined);
    deletion.stop();
    expect(deletion.seen).toEqual([
      'Unknown/Initialized/Condition Initialized',
      'False/ClusterDeploymentsPendingCleanup/The following ClusterDeployments are pending cleanup: <names>',
      'True/DeletionPossible/No ClusterDeployments pending cleanup',
    ]);
    const left = await client.list(R.clusterDeployment, undefined, {
      labelSelector: 'hive.openshift.io/clusterpool-name=team',
    });
    expect(left.items).toHaveLength(0);
  });
});
