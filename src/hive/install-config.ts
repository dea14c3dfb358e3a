// The install-config.yaml Hive hands to openshift-install (installConfigSecretRef, key `install-config.yaml`).
// The pull secret is deliberately absent: Hive merges it from spec.pullSecretRef and the HiveConfig global pull
// secret when it launches the install (REFERENCE.md §2.1), so the Secret never carries credentials.
import { stringify } from 'yaml';

export type InstallPlatform = 'aws' | 'gcp' | 'azure' | 'none';

export interface MachinePoolParams {
  replicas: number;
  instanceType?: string;
}

export interface NetworkingParams {
  clusterNetwork: Array<{ cidr: string; hostPrefix: number }>;
  machineNetwork: Array<{ cidr: string }>;
  serviceNetwork: string[];
  networkType: string;
}

export interface InstallConfigParams {
  name: string;
  baseDomain: string;
  platform: InstallPlatform;
  region?: string;
  gcpProjectID?: string;
  azureBaseDomainResourceGroupName?: string;
  azureCloudName?: string;
  userTags?: Record<string, string>;
  controlPlane: MachinePoolParams;
  compute: MachinePoolParams;
  networking: NetworkingParams;
  sshKey?: string;
}

/** Defaults of openshift-install for an IPv4 cluster. */
export const DEFAULT_NETWORKING: NetworkingParams = {
  clusterNetwork: [{ cidr: '10.128.0.0/14', hostPrefix: 23 }],
  machineNetwork: [{ cidr: '10.0.0.0/16' }],
  serviceNetwork: ['172.30.0.0/16'],
  networkType: 'OVNKubernetes',
};

export const DEFAULT_INSTANCE_TYPES: Record<InstallPlatform, string | undefined> = {
  aws: 'm6i.xlarge',
  gcp: 'n2-standard-4',
  azure: 'Standard_D4s_v3',
  none: undefined,
};

function machinePlatform(p: InstallConfigParams, pool: MachinePoolParams): Record<string, unknown> {
  const type = pool.instanceType ?? DEFAULT_INSTANCE_TYPES[p.platform];
  if (p.platform === 'none' || !type) return {};
  return { [p.platform]: { type } };
}

function platformSection(p: InstallConfigParams): Record<string, unknown> {
  switch (p.platform) {
    case 'aws':
      return {
        aws: { region: p.region, ...(p.userTags && Object.keys(p.userTags).length ? { userTags: p.userTags } : {}) },
      };
    case 'gcp':
      return { gcp: { projectID: p.gcpProjectID, region: p.region } };
    case 'azure':
      return {
        azure: {
          region: p.region,
          baseDomainResourceGroupName: p.azureBaseDomainResourceGroupName,
          ...(p.azureCloudName ? { cloudName: p.azureCloudName } : {}),
        },
      };
    case 'none':
      return { none: {} };
  }
}

export function installConfig(p: InstallConfigParams): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    metadata: { name: p.name },
    baseDomain: p.baseDomain,
    controlPlane: { name: 'master', replicas: p.controlPlane.replicas, platform: machinePlatform(p, p.controlPlane) },
    compute: [{ name: 'worker', replicas: p.compute.replicas, platform: machinePlatform(p, p.compute) }],
    networking: {
      clusterNetwork: p.networking.clusterNetwork,
      machineNetwork: p.networking.machineNetwork,
      serviceNetwork: p.networking.serviceNetwork,
      networkType: p.networking.networkType,
    },
    platform: platformSection(p),
    ...(p.sshKey ? { sshKey: p.sshKey } : {}),
  };
}

export function installConfigYaml(p: InstallConfigParams): string {
  return stringify(installConfig(p));
}
