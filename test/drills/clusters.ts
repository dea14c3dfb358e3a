// Clusters for drills, written straight to the hub as Hive objects that already exist (adopted, installed), the way
// an operator's hub would have them; `fake-cluster` makes Hive switch their power at once.
import type { KubeClient } from '../../src/sim/client/index.js';
import { R } from '../../src/sim/client/index.js';
import { until, type Drill } from './harness.js';
import { watchPowerChanges, type PowerChanges } from './power-changes.js';
import { mapLimit } from '../../src/map-limit.js';
import { adoptedClusterDeployment, awsCredsSecret, b64, kubeconfigSecret } from '../support/adopted-cluster.js';

/** Creates the namespace and one adopted ClusterDeployment per name (16 requests in flight). */
export async function adoptClusters(
  kube: KubeClient,
  namespace: string,
  names: string[],
  opts: { annotations?: Record<string, string> } = {},
): Promise<void> {
  await kube.create(R.namespace, { metadata: { name: namespace } });
  await kube.create(R.secret, awsCredsSecret(namespace));
  await kube.create(R.secret, kubeconfigSecret(namespace, 'admin-kubeconfig'));
  const one = async (name: string) =>
    kube.create(
      R.clusterDeployment,
      adoptedClusterDeployment(namespace, name, { ...opts, fake: true, kubeconfigSecret: 'admin-kubeconfig' }),
    );
  await mapLimit(names, 16, one);
}

/** What a cluster or pool create needs on the hub: the namespace, AWS credentials, a pull secret, a 4.16 image set. */
export async function createInstallInputs(kube: KubeClient, namespace: string): Promise<void> {
  await kube.create(R.namespace, { metadata: { name: namespace } });
  await kube.create(R.secret, awsCredsSecret(namespace));
  await kube.create(R.secret, {
    metadata: { name: 'pull-secret', namespace },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  });
  await kube.create(R.clusterImageSet, {
    metadata: { name: 'openshift-v4.16.3' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  });
}

/**
 * adoptClusters, then a watch on their power (from before any drill action, so it counts every change) and a wait
 * until Hive reports each Running: the stage every power drill starts from. The watch is stopped if they never do.
 */
export async function adoptRunning(
  drill: Drill,
  namespace: string,
  names: string[],
  opts: { annotations?: Record<string, string> } = {},
): Promise<PowerChanges> {
  await adoptClusters(drill.kube(), namespace, names, opts);
  const power = watchPowerChanges(drill.kube(), namespace);
  try {
    await until(
      `all ${names.length} clusters report Running`,
      () => names.every((n) => power.now(n) === 'Running'),
      90_000,
    );
  } catch (err) {
    power.stop();
    throw err;
  }
  return power;
}
