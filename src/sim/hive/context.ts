import type { Clock } from '../../clock.js';
import type { Durations } from '../durations.js';
import type { Informer, KubeClient, KubeObject } from '../client/index.js';
import type { Expectations } from './expectations.js';
import type { HiveMetrics } from './metrics.js';

export type Log = (obj: object, msg: string) => void;

/** Shared by every controller of one hub. */
export interface HiveContext {
  hub: string;
  client: KubeClient;
  clock: Clock;
  durations: Durations;
  log: Log;
  informers: Informers;
  options: HiveOptions;
  /** ClusterProvisions created per ClusterDeployment (`namespace/name`) that the informer has not seen yet. */
  provisionExpectations: Expectations;
  /** Builds a client for another API server (the destination of a ClusterRelocate). */
  connect(kubeconfigYaml: string): KubeClient;
  /** Hive's Prometheus counters for this hub (served at `/_sim/metrics` when the simulator wires them up). */
  metrics: HiveMetrics;
}

export interface HiveOptions {
  /** HiveConfig `deleteProtection: enabled`: annotate CDs with protected-delete when their install completes. */
  deleteProtection: boolean;
  /** Default for CDs without the install-failures annotation: fail the first n attempts, or every attempt. */
  installFailures: number | 'always';
}

export interface Informers {
  clusterDeployments: Informer;
  clusterPools: Informer;
  clusterClaims: Informer;
  clusterRelocates: Informer;
  clusterImageSets: Informer;
  clusterProvisions: Informer;
  clusterDeprovisions: Informer;
  clusterSyncs: Informer;
  namespaces: Informer;
}

export type Obj = KubeObject;

/** Annotations and labels the simulator reads and writes (REFERENCE §3). */
export const A = {
  deleteAfter: 'hive.openshift.io/delete-after',
  tryInstallOnce: 'hive.openshift.io/try-install-once',
  protectedDelete: 'hive.openshift.io/protected-delete',
  fakeCluster: 'hive.openshift.io/fake-cluster',
  reconcilePause: 'hive.openshift.io/reconcile-pause',
  powerStatePause: 'hive.openshift.io/powerstate-pause',
  relocate: 'hive.openshift.io/relocate',
  removeFromPool: 'hive.openshift.io/remove-cluster-from-pool',
  removeClaimedFromPool: 'hive.openshift.io/remove-claimed-cluster-from-pool',
  poolSpecHash: 'hive.openshift.io/cluster-pool-spec-hash',
  infraDisabled: 'hive.openshift.io/infra-disabled',
  syncSetPause: 'hive.openshift.io/syncset-pause',
  /** Simulator-only: fail the first n provision attempts ("always" for every attempt). */
  installFailures: 'sim.hive.openshift.io/install-failures',
} as const;

export const L = {
  platform: 'hive.openshift.io/cluster-platform',
  region: 'hive.openshift.io/cluster-region',
  version: 'hive.openshift.io/version',
  versionMajor: 'hive.openshift.io/version-major',
  versionMajorMinor: 'hive.openshift.io/version-major-minor',
  versionMajorMinorPatch: 'hive.openshift.io/version-major-minor-patch',
  cdName: 'hive.openshift.io/cluster-deployment-name',
  provisionName: 'hive.openshift.io/cluster-provision-name',
  secretType: 'hive.openshift.io/secret-type',
  poolName: 'hive.openshift.io/clusterpool-name',
  poolNamespace: 'hive.openshift.io/clusterpool-namespace',
  namespacePool: 'hive.openshift.io/cluster-pool-name',
  resumeSkipsClusterOperators: 'hive.openshift.io/resume-skips-cluster-operators',
} as const;

export const F = {
  deprovision: 'hive.openshift.io/deprovision',
  clusters: 'hive.openshift.io/clusters',
  claim: 'hive.openshift.io/claim',
} as const;

export const ann = (obj: Obj, key: string): string | undefined => obj.metadata.annotations?.[key];
export const lbl = (obj: Obj, key: string): string | undefined => obj.metadata.labels?.[key];
export const isDeleting = (obj: Obj): boolean => Boolean(obj.metadata.deletionTimestamp);
export const hasFinalizer = (obj: Obj, f: string): boolean => (obj.metadata.finalizers ?? []).includes(f);
export const created = (obj: Obj): number => Date.parse(obj.metadata.creationTimestamp);

export function ownerRef(owner: Obj, controller = true): Record<string, unknown> {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller,
    blockOwnerDeletion: true,
  };
}

/** A key `ns/name` split back. */
export function splitKey(key: string): [string | undefined, string] {
  const i = key.indexOf('/');
  return i < 0 ? [undefined, key] : [key.slice(0, i), key.slice(i + 1)];
}

export const clone = <T>(v: T): T => structuredClone(v);
