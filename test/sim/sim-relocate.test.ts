import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsClusterDeployment, condition, createPrerequisites, waitFor } from './sim-helpers.js';

describe('simulated ClusterRelocate between two hubs', () => {
  let sim: Simulator;
  let source: KubeClient;
  let dest: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ hubs: 2, speed: 5000 });
    [source, dest] = sim.hubs.map((h) => createKubeClient({ server: h.url, token: h.token })) as [
      KubeClient,
      KubeClient,
    ];
    await createPrerequisites(source, 'team');
    await createPrerequisites(dest, 'other');
    const hub2 = sim.hubs[1]!.server.kubeconfig('hub-2');
    await source.create(R.secret, {
      metadata: { name: 'hub-2-kubeconfig', namespace: 'team' },
      data: { kubeconfig: Buffer.from(toYaml(hub2)).toString('base64') },
    });
  });
  afterAll(() => sim?.close());

  it('moves a cluster with its Secrets to the other hub and removes the source without deprovisioning', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'mover', { labels: { move: 'yes' } }));
    const before = (await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'mover',
      (o) => o?.status?.powerState === 'Running',
    ))!;
    const annotations: string[] = [];
    const watch = source.watch(R.clusterDeployment, 'team', {
      onEvent: (_t, o) => {
        const a = o.metadata.annotations?.['hive.openshift.io/relocate'];
        if (o.metadata.name === 'mover' && a && annotations.at(-1) !== a) annotations.push(a);
      },
      onGone() {},
    });

    await source.create(R.clusterRelocate, {
      metadata: { name: 'to-hub-2', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
        clusterDeploymentSelector: { matchLabels: { move: 'yes' } },
      },
    });

    await waitFor(source, R.clusterDeployment, 'team', 'mover', (o) => o === undefined);
    watch.stop();
    expect(annotations).toEqual(['to-hub-2/outgoing', 'to-hub-2/complete']);
    expect(await source.tryGet(R.clusterDeprovision, 'team', 'mover')).toBeUndefined();

    const moved = (await waitFor(
      dest,
      R.clusterDeployment,
      'team',
      'mover',
      (o) =>
        Boolean(o) && !o!.metadata.annotations?.['hive.openshift.io/relocate'] && o!.status?.powerState === 'Running',
    ))!;
    expect(moved.spec.installed).toBe(true);
    expect(moved.spec.clusterMetadata).toEqual(before.spec.clusterMetadata);
    expect(moved.metadata.uid).not.toBe(before.metadata.uid);
    const secrets = (await dest.list(R.secret, 'team')).items.map((s) => s.metadata.name);
    expect(secrets).toEqual(
      expect.arrayContaining([
        before.spec.clusterMetadata.adminKubeconfigSecretRef.name,
        before.spec.clusterMetadata.adminPasswordSecretRef.name,
        'mover-metadata-json',
        'aws-creds',
        'pull-secret',
        'install-config',
      ]),
    );
  });

  it('refuses to move when two ClusterRelocates match', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'torn', { labels: { torn: 'yes' } }));
    for (const name of ['a', 'b']) {
      await source.create(R.clusterRelocate, {
        metadata: { name: `torn-${name}`, namespace: 'team' },
        spec: {
          kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
          clusterDeploymentSelector: { matchLabels: { torn: 'yes' } },
        },
      });
    }
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'torn',
      (o) => condition(o, 'RelocationFailed')?.reason === 'MultipleMatchingRelocates',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message: 'multiple ClusterRelocates match: torn-a, torn-b',
    });
    expect(cd!.metadata.annotations?.['hive.openshift.io/relocate']).toBeUndefined();
  });

  it('reports a missing kubeconfig Secret', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'lost', { labels: { lost: 'yes' } }));
    await source.create(R.clusterRelocate, {
      metadata: { name: 'nowhere', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'missing' },
        clusterDeploymentSelector: { matchLabels: { lost: 'yes' } },
      },
    });
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'lost',
      (o) => condition(o, 'RelocationFailed')?.reason === 'MissingKubeconfigSecret',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message: 'missing kubeconfig secret for destination cluster: secrets "missing" not found',
    });
  });

  it('refuses to overwrite a different cluster of the same name on the destination (ClusterDeploymentMismatch)', async () => {
    // After the first test the destination has namespace `team` with the Secrets a CD needs.
    const other = awsClusterDeployment('team', 'twin');
    other.spec.baseDomain = 'elsewhere.example.com';
    await dest.create(R.clusterDeployment, other);
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'twin', { labels: { twin: 'yes' } }));
    await source.create(R.clusterRelocate, {
      metadata: { name: 'twin-to-hub-2', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
        clusterDeploymentSelector: { matchLabels: { twin: 'yes' } },
      },
    });
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'twin',
      (o) => condition(o, 'RelocationFailed')?.reason === 'ClusterDeploymentMismatch',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message:
        'The ClusterDeployment in the destination cluster does not match the one being relocated. To relocate this ' +
        'ClusterDeployment, the ClusterDeployment in the destination cluster first must be deleted.',
    });
    expect(cd!.metadata.annotations?.['hive.openshift.io/relocate']).toBeUndefined();
  });
});
