// The slices of Hive's kinds that pool and claim rules read (REFERENCE.md §4-5; JSON names exactly as Hive's).
// Type aliases, not interfaces, so they satisfy the gateway's index-signature object type.

export type Meta = {
  name: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
};

export type Condition = {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
};

export type PlatformSpec = Record<string, { region?: string; credentialsSecretRef?: { name: string }; [key: string]: unknown } | undefined>;

export type ClusterPool = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
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
  metadata: Meta;
  spec: {
    clusterPoolName: string;
    subjects?: Array<{ kind: string; apiGroup?: string; name: string; namespace?: string }>;
    namespace?: string;
    lifetime?: string;
  };
  status?: { conditions?: Condition[]; lifetime?: string };
};

export type ClusterDeployment = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: {
    clusterName?: string;
    installed?: boolean;
    powerState?: string;
    platform?: PlatformSpec;
    clusterPoolRef?: { namespace: string; poolName: string; claimName?: string; claimedTimestamp?: string };
    clusterMetadata?: {
      adminKubeconfigSecretRef?: { name: string };
      adminPasswordSecretRef?: { name: string };
      metadataJSONSecretRef?: { name: string };
    };
  };
  status?: {
    powerState?: string;
    apiURL?: string;
    webConsoleURL?: string;
    installedTimestamp?: string;
    conditions?: Condition[];
  };
};

export type ClusterImageSet = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: { releaseImage: string };
};

export function condition(obj: { status?: { conditions?: Condition[] } } | undefined, type: string): Condition | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

/** `{hub}/{namespace}/{name}`, the address of every Hive object in Beekeeper's API. */
export function objectId(hub: string, meta: { namespace?: string; name: string }): string {
  return [hub, meta.namespace, meta.name].filter(Boolean).join('/');
}
