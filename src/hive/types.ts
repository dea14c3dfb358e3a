// The parts of Hive's kinds Beekeeper reads and writes, with Hive's JSON names (REFERENCE.md §2,
// apis/hive/v1/clusterdeployment_types.go). Structural types: fields Beekeeper does not model pass through untouched.
import type { PowerState, SpecPowerState } from './constants.js';

export interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }>;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string;
}

export interface LocalRef {
  name: string;
}

export interface AwsPlatform {
  region: string;
  credentialsSecretRef?: LocalRef;
  credentialsAssumeRole?: { roleARN: string; externalID?: string };
  userTags?: Record<string, string>;
}
export interface GcpPlatform {
  region: string;
  credentialsSecretRef?: LocalRef;
}
export interface AzurePlatform {
  region: string;
  credentialsSecretRef?: LocalRef;
  baseDomainResourceGroupName?: string;
  cloudName?: '' | 'AzurePublicCloud' | 'AzureUSGovernmentCloud' | 'AzureChinaCloud' | 'AzureGermanCloud';
}

export interface ClusterDeploymentPlatform {
  aws?: AwsPlatform;
  gcp?: GcpPlatform;
  azure?: AzurePlatform;
  ibmcloud?: { region: string; credentialsSecretRef?: LocalRef; accountID?: string; cisInstanceCRN?: string };
  openstack?: { cloud: string; credentialsSecretRef?: LocalRef };
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
  pullSecretRef?: LocalRef;
  preserveOnDelete?: boolean;
  installed?: boolean;
  provisioning?: {
    installConfigSecretRef?: LocalRef;
    releaseImage?: string;
    imageSetRef?: LocalRef;
    installerImageOverride?: string;
    sshPrivateKeySecretRef?: LocalRef;
  };
  clusterMetadata?: {
    clusterID: string;
    infraID: string;
    adminKubeconfigSecretRef: LocalRef;
    adminPasswordSecretRef?: LocalRef;
    metadataJSONSecretRef?: LocalRef;
  };
  clusterPoolRef?: {
    namespace: string;
    poolName: string;
    claimName?: string;
    claimedTimestamp?: string;
    /** JSON name of Go's CustomizationRef (REFERENCE.md §11.1). */
    clusterDeploymentCustomization?: LocalRef;
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
  provisionRef?: LocalRef;
}

export interface ClusterDeployment {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: ClusterDeploymentSpec;
  status?: ClusterDeploymentStatus;
  [key: string]: unknown;
}

export interface ClusterImageSet {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: { releaseImage: string };
  [key: string]: unknown;
}

export interface Secret {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  type?: string;
  /** base64 values. */
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [key: string]: unknown;
}

/** The condition of that type, if Hive has set it. */
export function findCondition(obj: { status?: { conditions?: Condition[] } }, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}
