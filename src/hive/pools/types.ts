// ClusterPool and ClusterClaim as pool and claim rules read them (REFERENCE.md §4-5; JSON names exactly as
// Hive's); ClusterDeployment and ClusterImageSet are the shared ones (../types.ts). Type aliases, not
// interfaces, so they satisfy the gateway's index-signature object type.

import type { ClusterDeployment, ClusterImageSet, Condition, ObjectMeta } from '../types.js';

export type { ClusterDeployment, ClusterImageSet, Condition };

export type PlatformSpec = Record<
  string,
  { region?: string; credentialsSecretRef?: { name: string }; [key: string]: unknown } | undefined
>;

export type ClusterPool = {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    platform: PlatformSpec;
    size: number;
    runningCount?: number;
    maxSize?: number;
    maxConcurrent?: number;
    baseDomain: string;
    imageSetRef: { name: string };
    pullSecretRef?: { name: string };
    installConfigSecretTemplateRef?: { name: string };
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    hibernateAfter?: string;
    claimLifetime?: { default?: string; maximum?: string };
    hibernationConfig?: { resumeTimeout?: string };
    skipMachinePools?: boolean;
    installAttemptsLimit?: number;
  };
  status?: { size?: number; standby?: number; ready?: number; conditions?: Condition[] };
};

export type ClusterClaim = {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    clusterPoolName: string;
    subjects?: Array<{ kind: string; apiGroup?: string; name: string; namespace?: string }>;
    namespace?: string;
    lifetime?: string;
  };
  status?: { conditions?: Condition[]; lifetime?: string };
};

/** `{hub}/{namespace}/{name}`, the address of every Hive object in Beekeeper's API. */
export function objectId(hub: string, meta: { namespace?: string; name: string }): string {
  return [hub, meta.namespace, meta.name].filter(Boolean).join('/');
}
