// A cluster Beekeeper adopts: a ClusterDeployment Hive has already installed, with the secrets it points at, written
// straight to the hub the way an operator's hub would hold it. One shape for tests, drills and benches, so that a
// change to what "adopted" means (a field Hive starts to require) is made once.
import type { System } from '../../src/system.js';

export const b64 = (s: string) => Buffer.from(s).toString('base64');

export interface AdoptedOptions {
  labels?: Record<string, string>;
  /** Merged over the fake-cluster annotation (when `fake`). */
  annotations?: Record<string, string>;
  /** `hive.openshift.io/fake-cluster`: Hive switches the cluster's power at once. */
  fake?: boolean;
  /** The cluster belongs to this pool (in namespace `pools`). */
  pool?: string;
  /** The admin kubeconfig secret it points at; `<name>-kubeconfig` unless given. */
  kubeconfigSecret?: string;
}

/** An adopted, installed ClusterDeployment (Hive takes it as is and reports it Running). */
export function adoptedClusterDeployment(namespace: string, name: string, opts: AdoptedOptions = {}) {
  return {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: {
      name,
      namespace,
      labels: opts.labels ?? {},
      annotations: { ...(opts.fake ? { 'hive.openshift.io/fake-cluster': 'true' } : {}), ...opts.annotations },
    },
    spec: {
      clusterName: name,
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      installed: true,
      clusterMetadata: {
        clusterID: `${name}-id`,
        infraID: `${name}-infra`,
        adminKubeconfigSecretRef: { name: opts.kubeconfigSecret ?? `${name}-kubeconfig` },
      },
      ...(opts.pool ? { clusterPoolRef: { namespace: 'pools', poolName: opts.pool } } : {}),
    },
  };
}

/** The AWS credentials every adopted cluster's platform refers to (`aws-creds`). */
export function awsCredsSecret(namespace: string) {
  return {
    metadata: { name: 'aws-creds', namespace },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  };
}

/** An admin kubeconfig secret named `name`. */
export function kubeconfigSecret(namespace: string, name: string) {
  return { metadata: { name, namespace }, data: { kubeconfig: b64('apiVersion: v1\nkind: Config\n') } };
}

/**
 * Writes one adopted cluster through Beekeeper's store: its namespace and the AWS credentials (kept if there
 * already), its kubeconfig secret and the ClusterDeployment. The caller waits for the power state it needs.
 */
export async function createAdopted(
  store: System['store'],
  hub: string,
  namespace: string,
  name: string,
  opts: AdoptedOptions = {},
): Promise<void> {
  await store.create('Namespace', hub, { metadata: { name: namespace } }).catch(() => undefined);
  await store.create('Secret', hub, awsCredsSecret(namespace)).catch(() => undefined);
  await store.create('Secret', hub, kubeconfigSecret(namespace, opts.kubeconfigSecret ?? `${name}-kubeconfig`));
  await store.create('ClusterDeployment', hub, adoptedClusterDeployment(namespace, name, opts));
}
