import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsClusterDeployment, condition, createPrerequisites, waitFor } from './sim-helpers.js';

describe('simulated provisioning', () => {
  let sim: Simulator;
  let client: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ speed: 5000 });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'inst');
  });
  afterAll(() => sim?.close());

  it('installs through a ClusterProvision and publishes the admin Secrets, metadata and URLs as Hive does', async () => {
    await client.create(R.clusterDeployment, awsClusterDeployment('inst', 'ok'));
    const cd = (await waitFor(client, R.clusterDeployment, 'inst', 'ok', (o) => o?.spec?.installed === true))!;
    const prov = cd.status.provisionRef.name as string;
    expect(prov).toMatch(/^ok-0-[a-z0-9]{5}$/);
    expect(cd.status).toMatchObject({
      installVersion: '4.16.3',
      apiURL: 'https://api.ok.example.com:6443',
      webConsoleURL: 'https://console-openshift-console.apps.ok.example.com',
    });
    expect(cd.status.installedTimestamp).toBeTruthy();
    expect(condition(cd, 'Provisioned')).toMatchObject({ status: 'True', reason: 'Provisioned' });
    expect(condition(cd, 'RequirementsMet')).toMatchObject({ status: 'True', reason: 'AllRequirementsMet' });
    expect(cd.metadata.labels).toMatchObject({
      'hive.openshift.io/cluster-platform': 'aws',
      'hive.openshift.io/cluster-region': 'us-east-1',
    });
    // The clusterversion controller labels a reachable cluster with the version its spoke runs (kubectl's VERSION column).
    const labelled = await waitFor(
      client,
      R.clusterDeployment,
      'inst',
      'ok',
      (o) => o?.metadata.labels?.['hive.openshift.io/version-major-minor-patch'],
    );
    expect(labelled!.metadata.labels).toMatchObject({
      'hive.openshift.io/version': '4.16.3',
      'hive.openshift.io/version-major': '4',
      'hive.openshift.io/version-major-minor': '4.16',
      'hive.openshift.io/version-major-minor-patch': '4.16.3',
    });
    expect(cd.spec.clusterMetadata).toMatchObject({
      adminKubeconfigSecretRef: { name: `${prov}-admin-kubeconfig` },
      adminPasswordSecretRef: { name: `${prov}-admin-password` },
      metadataJSONSecretRef: { name: 'ok-metadata-json' },
    });
    const kubeconfig = await client.get(R.secret, 'inst', `${prov}-admin-kubeconfig`);
    expect(kubeconfig.metadata.labels).toMatchObject({
      'hive.openshift.io/secret-type': 'kubeconfig',
      'hive.openshift.io/cluster-deployment-name': 'ok',
    });
    expect(Object.keys(kubeconfig.data).sort()).toEqual(['kubeconfig', 'raw-kubeconfig']);
    const password = await client.get(R.secret, 'inst', `${prov}-admin-password`);
    expect(password.metadata.labels['hive.openshift.io/secret-type']).toBe('kubeadmincreds');
    expect(Buffer.from(password.data.username, 'base64').toString()).toBe('kubeadmin');
    const provision = await client.get(R.clusterProvision, 'inst', prov);
    expect(provision.spec).toMatchObject({ stage: 'complete', attempt: 0, infraID: cd.spec.clusterMetadata.infraID });
  });

  it('stops after installAttemptsLimit failed attempts', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('inst', 'bad', {
        annotations: { 'sim.hive.openshift.io/install-failures': 'always' },
        spec: { installAttemptsLimit: 2 },
      }),
    );
    const cd = (await waitFor(
      client,
      R.clusterDeployment,
      'inst',
      'bad',
      (o) => condition(o, 'ProvisionStopped')?.status === 'True',
    ))!;
    expect(condition(cd, 'ProvisionStopped')).toMatchObject({ reason: 'InstallAttemptsLimitReached' });
    expect(condition(cd, 'Provisioned')).toMatchObject({ status: 'False', reason: 'ProvisionStopped' });
    expect(condition(cd, 'ProvisionFailed')).toMatchObject({ status: 'True', reason: 'UnknownError' });
    expect(cd.status.installRestarts).toBe(2);
    expect(cd.spec.installed).toBeFalsy();
    const provisions = (
      await client.list(R.clusterProvision, 'inst', { labelSelector: 'hive.openshift.io/cluster-deployment-name=bad' })
    ).items;
    expect(provisions.map((p) => [p.spec.attempt, p.spec.stage]).sort()).toEqual([
      [0, 'failed'],
      [1, 'failed'],
    ]);
  });

  it('retries a failed install and succeeds on the next attempt', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('inst', 'flaky', {
        annotations: { 'sim.hive.openshift.io/install-failures': '1' },
      }),
    );
    const cd = (await waitFor(client, R.clusterDeployment, 'inst', 'flaky', (o) => o?.spec?.installed === true))!;
    expect(cd.status.installRestarts).toBe(1);
    expect(cd.status.provisionRef.name).toMatch(/^flaky-1-/);
    expect(condition(cd, 'ProvisionFailed')).toMatchObject({
      status: 'False',
      reason: 'ProvisionSucceeded',
      message: `Provision ${cd.status.provisionRef.name} succeeded.`,
    });
    const second = await client.get(R.clusterProvision, 'inst', cd.status.provisionRef.name);
    expect(second.spec.prevProvisionName).toMatch(/^flaky-0-/);
    expect(second.spec.prevInfraID).toMatch(/^flaky-/);
  });

  it('stops after the first failure with try-install-once', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('inst', 'once', {
        annotations: {
          'sim.hive.openshift.io/install-failures': 'always',
          'hive.openshift.io/try-install-once': 'true',
        },
      }),
    );
    const cd = await waitFor(
      client,
      R.clusterDeployment,
      'inst',
      'once',
      (o) => condition(o, 'ProvisionStopped')?.status === 'True',
    );
    expect(condition(cd, 'ProvisionStopped')).toMatchObject({ reason: 'InstallOnlyOnceSet' });
    expect(cd!.status.installRestarts).toBe(1);
  });

  it('stops with FailureReasonNotRetryable when HiveConfig retryReasons does not list the failure', async () => {
    await client.mergePatch(R.hiveConfig, undefined, 'hive', {
      spec: { failedProvisionConfig: { retryReasons: ['AWSInsufficientCapacity'] } },
    });
    try {
      await client.create(
        R.clusterDeployment,
        awsClusterDeployment('inst', 'picky', {
          annotations: { 'sim.hive.openshift.io/install-failures': 'always' },
        }),
      );
      const cd = await waitFor(
        client,
        R.clusterDeployment,
        'inst',
        'picky',
        (o) => condition(o, 'ProvisionStopped')?.status === 'True',
      );
      expect(condition(cd, 'ProvisionStopped')).toMatchObject({
        reason: 'FailureReasonNotRetryable',
        message: 'Provision failure reason not retryable',
      });
      expect(condition(cd, 'Provisioned')).toMatchObject({
        status: 'False',
        reason: 'ProvisionStopped',
        message: 'Provisioning failed terminally (see the ProvisionStopped condition for details)',
      });
      expect(cd!.status.installRestarts).toBe(1);
    } finally {
      await client.mergePatch(R.hiveConfig, undefined, 'hive', { spec: { failedProvisionConfig: null } });
    }
  });

  it('reports SyncSetFailed=True/SyncSetPaused for a cluster installed under syncset-pause (no ClusterSync)', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('inst', 'nosync', {
        annotations: { 'hive.openshift.io/syncset-pause': 'true' },
      }),
    );
    const cd = await waitFor(
      client,
      R.clusterDeployment,
      'inst',
      'nosync',
      (o) => condition(o, 'SyncSetFailed')?.reason === 'SyncSetPaused',
    );
    expect(condition(cd, 'SyncSetFailed')).toMatchObject({
      status: 'True',
      message: 'SyncSet is paused. ClusterSync will not be created',
    });
    expect(cd!.spec.installed).toBe(true);
    expect(await client.tryGet(R.clusterSync, 'inst', 'nosync')).toBeUndefined();
  });

  it('waits with RequirementsMet=False while the ClusterImageSet is missing', async () => {
    const cd = awsClusterDeployment('inst', 'noimg');
    cd.spec.provisioning.imageSetRef = { name: 'later' };
    await client.create(R.clusterDeployment, cd);
    const got = await waitFor(
      client,
      R.clusterDeployment,
      'inst',
      'noimg',
      (o) => condition(o, 'RequirementsMet')?.reason === 'ClusterImageSetNotFound',
    );
    expect(condition(got, 'RequirementsMet')!.status).toBe('False');
    await client.create(R.clusterImageSet, {
      metadata: { name: 'later' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
    });
    const done = await waitFor(client, R.clusterDeployment, 'inst', 'noimg', (o) => o?.spec?.installed === true);
    expect(done!.status.installVersion).toBe('4.17.9');
  });

  it('annotates protected-delete at install completion once HiveConfig enables deleteProtection', async () => {
    const config = await client.get(R.hiveConfig, undefined, 'hive');
    expect(config.spec.deleteProtection).toBeUndefined();
    await client.mergePatch(R.hiveConfig, undefined, 'hive', { spec: { deleteProtection: 'enabled' } });
    try {
      await client.create(R.clusterDeployment, awsClusterDeployment('inst', 'guarded'));
      const cd = await waitFor(client, R.clusterDeployment, 'inst', 'guarded', (o) => o?.spec?.installed === true);
      expect(cd!.metadata.annotations['hive.openshift.io/protected-delete']).toBe('true');
    } finally {
      await client.mergePatch(R.hiveConfig, undefined, 'hive', { spec: { deleteProtection: null } });
    }
  });
});
