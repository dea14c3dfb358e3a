import type { Obj } from './context.js';
import { A, ann } from './context.js';
import { isTruthy } from './go-values.js';

/** apis/hive/v1 getClusterPlatform: the value of the cluster-platform label. */
export function platformLabel(platform: Record<string, unknown> | undefined): string {
  const p = platform ?? {};
  if (p.aws) return 'aws';
  if (p.azure) return 'azure';
  if (p.gcp) return 'gcp';
  if (p.openstack) return 'openstack';
  if (p.vsphere) return 'vsphere';
  if (p.baremetal) return 'baremetal';
  if (p.agentBareMetal) return 'agent-baremetal';
  if (p.ibmcloud) return 'ibmcloud';
  if (p.none) return 'none-platform';
  if (p.nutanix) return 'nutanix';
  return 'unknown';
}

/** The cluster-region label: the region for aws/azure/gcp/ibmcloud, `unknown` for openstack/vsphere, else none. */
export function regionLabel(platform: Record<string, any> | undefined): string | undefined {
  const p = platform ?? {};
  for (const k of ['aws', 'azure', 'gcp', 'ibmcloud']) if (p[k]) return p[k].region || undefined;
  if (p.openstack || p.vsphere) return 'unknown';
  return undefined;
}

/**
 * Hibernation actuators exist for AWS, GCP, Azure and IBM Cloud only; Azure with infra-disabled has none.
 * Returns the `Unsupported` message, or undefined when the platform can hibernate.
 */
export function unsupportedPowerReason(cd: Obj): string | undefined {
  const p = cd.spec?.platform ?? {};
  if (p.azure && isTruthy(ann(cd, A.infraDisabled))) return 'Infrastructure disabled by annotation';
  if (p.aws || p.gcp || p.azure || p.ibmcloud) return undefined;
  return 'Unsupported platform: no actuator to handle it';
}

/** The credentials Secret a platform block names, if any. */
export function credentialsSecretName(platform: Record<string, any> | undefined): string | undefined {
  for (const v of Object.values(platform ?? {})) {
    const name = v?.credentialsSecretRef?.name;
    if (name) return name;
  }
  return undefined;
}
