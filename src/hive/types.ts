// The parts of Hive's kinds Beekeeper reads and writes, with Hive's JSON names (REFERENCE.md §2,
// apis/hive/v1/clusterdeployment_types.go). Structural types: fields Beekeeper does not model pass through untouched.
import type { PowerState, SpecPowerState } from './constants.js';

/** Kubernetes ObjectMeta, the fields Beekeeper reads or writes (`generateName` for claims named by the API server). */
export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: Array<{
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }>;
}

/** Any Kubernetes object: what the gateway stores and returns. Fields not modelled pass through untouched. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string;
}

/** corev1.LocalObjectReference: an object in the same namespace, by name. */
export interface LocalObjectReference {
  name: string;
}

export interface AwsPlatform {
  region: string;
  credentialsSecretRef?: LocalObjectReference;
  credentialsAssumeRole?: { roleARN: string; externalID?: string };
  userTags?: Record<string, string>;
}
export interface GcpPlatform {
  region: string;
  credentialsSecretRef?: LocalObjectReference;
}
export interface AzurePlatform {
  region: string;
  credentialsSecretRef?: LocalObjectReference;
  baseDomainResourceGroupName?: string;
  cloudName?: '' | 'AzurePublicCloud' | 'AzureUSGovernmentCloud' | 'AzureChinaCloud' | 'AzureGermanCloud';
}

export interface ClusterDeploymentPlatform {
  aws?: AwsPlatform;
  gcp?: GcpPlatform;
  azure?: AzurePlatform;
  ibmcloud?: {
    region: string;
    credentialsSecretRef?: LocalObjectReference;
    accountID?: string;
    cisInstanceCRN?: string;
  };
  openstack?: { cloud: string; credentialsSecretRef?: LocalObjectReference };
  vsphere?: Record<string, unknown>;
  nutanix?: Record<string, unknown>;
  baremetal?: Record<string, unknown>;
  agentBareMetal?: Record<string, unknown>;
  none?: Record<string, unknown>;
}

export interface ClusterDeploymentSpec {
  clusterName: string;
  baseDomain: string;
  platform: ClusterDeploymentPlatform;
  pullSecretRef?: LocalObjectReference;
  preserveOnDelete?: boolean;
  installed?: boolean;
  provisioning?: {
    installConfigSecretRef?: LocalObjectReference;
    releaseImage?: string;
    imageSetRef?: LocalObjectReference;
    installerImageOverride?: string;
    sshPrivateKeySecretRef?: LocalObjectReference;
  };
  clusterMetadata?: {
    clusterID: string;
    infraID: string;
    adminKubeconfigSecretRef: LocalObjectReference;
    adminPasswordSecretRef?: LocalObjectReference;
    metadataJSONSecretRef?: LocalObjectReference;
  };
  clusterPoolRef?: {
    namespace: string;
    poolName: string;
    claimName?: string;
    claimedTimestamp?: string;
    /** JSON name of Go's CustomizationRef (REFERENCE.md §11.1). */
    clusterDeploymentCustomization?: LocalObjectReference;
  };
  powerState?: SpecPowerState;
  hibernateAfter?: string;
  installAttemptsLimit?: number;
  manageDNS?: boolean;
}

export interface ClusterDeploymentStatus {
  installRestarts?: number;
  apiURL?: string;
  webConsoleURL?: string;
  installVersion?: string;
  installerImage?: string;
  cliImage?: string;
  conditions?: Condition[];
  installStartedTimestamp?: string;
  installedTimestamp?: string;
  powerState?: PowerState | '';
  provisionRef?: LocalObjectReference;
}

export interface ClusterDeployment extends KubeObject {
  spec: ClusterDeploymentSpec;
  status?: ClusterDeploymentStatus;
}

export interface ClusterImageSet extends KubeObject {
  spec: { releaseImage: string };
}

export interface Secret extends KubeObject {
  type?: string;
  /** base64 values. */
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** The condition of that type, if Hive has set it. */
export function findCondition(
  obj: { status?: { conditions?: Condition[] } } | undefined,
  type: string,
): Condition | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}
