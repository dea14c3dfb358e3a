// The scene of the relocation API's tests (relocation-preflight, relocation-api): two simulated hubs (east → west),
// clusters installed on east in namespaces that each show one preflight finding (a release only the source knows, a
// name taken on west, a power transition, a shared namespace, someone else's ClusterRelocate, a conflicting
// ConfigMap kept by an owner, an unclaimed pool cluster), and the helpers that post to and read from it.
import { expect } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

const HOUR = 3_600_000;

export type Report = {
  clusters: Array<{
    namespace: string;
    name: string;
    ok: boolean;
    checks: Array<{ check: string; severity: string; message: string; fix?: string }>;
  }>;
  imageSetsToCopy: string[];
  warnings: string[];
};
export const checksOf = (report: Report, ns: string, name: string) =>
  report.clusters.find((c) => c.namespace === ns && c.name === name)!;

/** Calls on the bed `bedOf` returns once the file's beforeAll has set the scene. */
export function sceneKit(bedOf: () => TwoHubBed) {
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    bedOf().app.inject({ method: 'POST', url: '/v1/relocations', payload: payload as object, headers });

  async function install(hub: string, namespace: string, name: string, extra: Record<string, unknown> = {}) {
    const res = await bedOf().app.inject({
      method: 'POST',
      url: '/v1/clusters?wait=60',
      payload: createBody(hub, namespace, name, extra),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().job.state, res.body).toBe('completed');
    // The install job ends at install; Hive then starts the cluster (the resume steps) before it is Running.
    await bedOf().system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub, namespace, name },
      (cd) => (cd?.status?.powerState === 'Running' ? true : undefined),
      { timeoutMs: 30_000 },
    );
  }

  const relocations = () =>
    bedOf().system.store.cachedList<KubeObject>('Relocation', {
      hub: bedOf().config.stateHub,
      namespace: bedOf().config.stateNamespace,
    });
  const operations = () =>
    bedOf()
      .system.store.cachedList<KubeObject>('Operation', {
        hub: bedOf().config.stateHub,
        namespace: bedOf().config.stateNamespace,
      })
      .filter((o) => (o.object.spec as { type?: string }).type === 'relocation.run');
  const poolCluster = () =>
    bedOf()
      .system.store.cachedList<ClusterDeployment>('ClusterDeployment', { hub: EAST })
      .map((e) => e.object)
      .find((cd) => cd.spec.clusterPoolRef?.poolName === 'warm')!;

  return { post, install, relocations, operations, poolCluster };
}

/** The two hubs with the scene set; closed again if setting it fails. */
export async function startScene(): Promise<TwoHubBed> {
  // A hibernation that takes 100 simulated hours leaves one cluster mid power transition for the whole file.
  const bed = await startTwoHubBed({ durations: { stopping: 100 * HOUR } });
  const { install, poolCluster } = sceneKit(() => bed);
  try {
    for (const ns of ['alpha', 'clash', 'power', 'shared', 'matched', 'gamma', 'pool', 'solo'])
      await prerequisites(bed, EAST, ns);
    await prerequisites(bed, WEST, 'clash');
    // Only the source knows this release.
    await bed.system.store.create('ClusterImageSet', EAST, {
      metadata: { name: 'openshift-v4.17.0' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64' },
    });
    await Promise.all([
      install(EAST, 'alpha', 'mover', { imageSet: 'openshift-v4.17.0' }),
      install(EAST, 'clash', 'twin'),
      install(WEST, 'clash', 'twin'),
      install(EAST, 'power', 'sleepy'),
      install(EAST, 'shared', 'one'),
      install(EAST, 'shared', 'two'),
      install(EAST, 'matched', 'target', { labels: { move: 'me' } }),
      install(EAST, 'gamma', 'odd'),
      install(EAST, 'solo', 'one'),
    ]);
    const { store } = bed.system;
    // Waiting for the stop: Hive's hibernation sits in Stopping.
    await store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'power', name: 'sleepy' },
      {
        spec: { powerState: 'Hibernating' },
      },
    );
    await store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: EAST, namespace: 'power', name: 'sleepy' },
      (cd) => (cd?.status?.powerState === 'Stopping' ? true : undefined),
      { timeoutMs: 10_000 },
    );
    // Someone else's ClusterRelocate already selects matched/target.
    await store.create('ClusterRelocate', EAST, {
      metadata: { name: 'someone-elses', namespace: 'matched' },
      spec: {
        kubeconfigSecretRef: { namespace: 'matched', name: 'elsewhere-kubeconfig' },
        clusterDeploymentSelector: { matchLabels: { move: 'me' } },
      },
    });
    // The #1932 shape: west already has gamma's ConfigMap, different, and kept by an owner.
    await store.create('Namespace', WEST, { metadata: { name: 'gamma' } });
    await store.create('ConfigMap', EAST, { metadata: { name: 'settings', namespace: 'gamma' }, data: { a: '1' } });
    const owner = await store.create<KubeObject>('ConfigMap', WEST, {
      metadata: { name: 'owner', namespace: 'gamma' },
      data: {},
    });
    await store.create('ConfigMap', WEST, {
      metadata: {
        name: 'settings',
        namespace: 'gamma',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid! }],
      },
      data: { a: '2' },
    });
    // An unclaimed pool cluster.
    const pool = await bed.app.inject({
      method: 'POST',
      url: '/v1/pools',
      payload: {
        hub: EAST,
        namespace: 'pool',
        name: 'warm',
        platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
        baseDomain: 'example.com',
        imageSetName: 'openshift-v4.16.3',
        pullSecretRef: 'pull-secret',
        size: 1,
        runningCount: 0,
      },
    });
    expect(pool.statusCode, pool.body).toBe(201);
    // Hive's pool controller adds the pool's cluster; wait for the informer to show it (an event, not a poll).
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the pool made no cluster within 10 s')), 10_000);
      const done = () => {
        if (!poolCluster()) return;
        clearTimeout(timer);
        off();
        resolve();
      };
      const off = store.onChange('ClusterDeployment', done);
      done();
    });
  } catch (err) {
    await bed.close();
    throw err;
  }
  return bed;
}
