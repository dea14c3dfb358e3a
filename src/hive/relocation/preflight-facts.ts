// What preflight's rules read and write: the facts gathered about one cluster from both hubs, and the names of the
// checks a report lists (preflight-rules.ts, lifecycle-checks.ts).
import type { LabelSelector } from '../label-selector.js';
import type { RelocationCheck } from '../resources/relocation.js';
import type { KubeObject } from '../types.js';

/** The check names a report uses (RelocationCheck.check). */
export const CHECK = {
  destination: 'destination-reachable',
  imageSet: 'image-set',
  nameConflict: 'name-conflict',
  conflictingObject: 'conflicting-object',
  secrets: 'secrets',
  installed: 'installed',
  deleting: 'deleting',
  relocating: 'relocating',
  powerTransition: 'power-transition',
  poolCluster: 'pool-cluster',
  claimPending: 'claim-pending',
  clusterRelocate: 'cluster-relocate-match',
  otherRelocation: 'other-relocation',
  sharedNamespace: 'shared-namespace',
} as const;

export interface ClusterRelocateObject extends KubeObject {
  spec?: { clusterDeploymentSelector?: LabelSelector; kubeconfigSecretRef?: { namespace?: string; name?: string } };
}

/** A Secret the CD names that Hive needs beside it, and the field naming it. */
export interface SecretRef {
  field: string;
  name: string;
}

/** Everything preflight read about one cluster, from both hubs. */
export interface ClusterFacts {
  from: string;
  to: string;
  /** The relocation asking, when its job re-runs preflight: its own label on the cluster is no obstacle. */
  relocationId?: string;
  destination: { reachable: boolean; hiveCrdsPresent: boolean; message?: string };
  /** spec.provisioning.imageSetRef.name and where it exists. */
  imageSet?: { name: string; onSource: boolean; onDestination: boolean };
  /** A ClusterDeployment of the same namespace/name on the destination. */
  destinationCd: boolean;
  /** The destination namespace is being deleted: Hive cannot create anything in it. */
  destinationNamespaceTerminating?: boolean;
  /** Same-named Secrets/ConfigMaps in the destination namespace that differ from the source's, with their owners. */
  conflicting: Array<{ kind: 'Secret' | 'ConfigMap'; name: string; owners: Array<{ kind: string; name: string }> }>;
  /** Referenced Secrets the source namespace lacks. */
  missingSecrets: SecretRef[];
  /** ClusterDeployments in the cluster's namespace on the source (itself included). */
  namespaceCds: number;
  /** ClusterRelocates on the source whose selector matches the CD, other than this relocation's own. */
  matchingRelocates: string[];
  /** Other unfinished Relocations that hold this cluster. */
  otherRelocations: string[];
  /** For a claimed pool cluster: whether its claim is still pending (undefined: no such claim found). */
  claimPending?: boolean;
}

/** A finding that blocks the move. */
export const blocking = (check: string, message: string, fix: string): RelocationCheck => ({
  check,
  severity: 'error',
  message,
  fix,
});
