// The compact create request and its validation. Every problem is reported at once, named by the field as the
// caller sent it, before anything is written (bad input changes nothing).
import { isDnsLabel, isDnsSubdomain, isObjectName } from '../../hive/names.js';
import { ANNOTATIONS } from '../../hive/constants.js';
import { GO_MAX_DURATION, invalidDurationMessage, isCrdDuration } from '../../hive/duration.js';
import { expiresInProblem } from './expires-in.js';
import { Invalid, type FieldIssue } from '../../hive/errors.js';
import {
  CIDR,
  IMAGE,
  SSH_KEY,
  checkCredentials,
  checkJson,
  checkLabels,
  checkPool,
  nonEmpty,
} from './create-request-checks.js';
import { DEFAULT_NETWORKING, type InstallPlatform, type NetworkingParams } from '../../hive/install-config.js';

export interface MachinePoolRequest {
  replicas?: number;
  instanceType?: string;
}

export interface CreateClusterRequest {
  hub: string;
  namespace: string;
  name: string;
  /** Create the namespace when it does not exist. */
  createNamespace?: boolean;
  baseDomain: string;
  platform: {
    aws?: {
      region: string;
      /** Name of an existing Secret with `aws_access_key_id` and `aws_secret_access_key`. */
      credentialsSecretRef?: string;
      /** Inline credentials: written to `<name>-aws-creds` during the request, never queued or logged. */
      credentials?: { accessKeyID: string; secretAccessKey: string };
      userTags?: Record<string, string>;
    };
    gcp?: {
      region: string;
      projectID: string;
      credentialsSecretRef?: string;
      credentials?: { serviceAccountJSON: string };
    };
    azure?: {
      region: string;
      baseDomainResourceGroupName: string;
      cloudName?: 'AzurePublicCloud' | 'AzureUSGovernmentCloud' | 'AzureChinaCloud' | 'AzureGermanCloud';
      credentialsSecretRef?: string;
      credentials?: { servicePrincipalJSON: string };
    };
    /** A platform Hive cannot power-manage (useful for bare clusters; hibernation reports Unsupported). */
    none?: object;
  };
  /** ClusterImageSet name (cluster-scoped). Exactly one of imageSet and releaseImage. */
  imageSet?: string;
  releaseImage?: string;
  /** Existing Secret of type kubernetes.io/dockerconfigjson in the namespace. */
  pullSecretRef?: string;
  /** Inline `.dockerconfigjson` content: written to `<name>-pull-secret` during the request. */
  pullSecret?: string;
  controlPlane?: MachinePoolRequest;
  compute?: MachinePoolRequest;
  networking?: Partial<NetworkingParams>;
  sshKey?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  powerState?: 'Running' | 'Hibernating';
  hibernateAfter?: string;
  /** Expiry as a Go duration from creation (Hive's own `delete-after` semantics), e.g. `8h`. */
  expiresIn?: string;
  /** Expiry as an absolute time (RFC 3339). */
  expiresAt?: string;
  installAttemptsLimit?: number;
  preserveOnDelete?: boolean;
}

export const PLATFORMS: readonly InstallPlatform[] = ['aws', 'gcp', 'azure', 'none'];

export function platformOf(req: CreateClusterRequest): InstallPlatform | undefined {
  const given = PLATFORMS.filter((p) => req.platform?.[p] !== undefined);
  return given.length === 1 ? given[0] : undefined;
}

/** Every problem with the request on its own (no hub needed). `now` is for absolute expiry checks. */
export function createRequestIssues(req: CreateClusterRequest, now: number): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const need = (ok: boolean, field: string, reason: string) => {
    if (!ok) issues.push({ field, reason });
  };

  need(nonEmpty(req.hub), 'hub', 'is required');
  need(
    isDnsLabel(req.namespace),
    'namespace',
    'must be a DNS label (lower-case alphanumerics and "-", at most 63 characters)',
  );
  // Hive's webhook caps both metadata.name and clusterName at 63 characters (REFERENCE.md §2.1).
  need(isDnsLabel(req.name), 'name', 'must be a DNS label (lower-case alphanumerics and "-", at most 63 characters)');
  need(isDnsSubdomain(req.baseDomain), 'baseDomain', 'must be a DNS domain such as example.com');

  const given = PLATFORMS.filter((p) => req.platform?.[p] !== undefined);
  if (given.length !== 1) issues.push({ field: 'platform', reason: `give exactly one of ${PLATFORMS.join(', ')}` });
  const { aws, gcp, azure } = req.platform ?? {};
  if (aws) {
    need(nonEmpty(aws.region), 'platform.aws.region', 'is required');
    checkCredentials(aws, 'platform.aws', issues, (c) =>
      ['accessKeyID', 'secretAccessKey']
        .filter((k) => !nonEmpty(c[k]))
        .map((k) => ({ field: `platform.aws.credentials.${k}`, reason: 'is required' })),
    );
    checkLabels(aws.userTags, 'platform.aws.userTags', issues, false);
  }
  if (gcp) {
    need(nonEmpty(gcp.region), 'platform.gcp.region', 'is required');
    need(nonEmpty(gcp.projectID), 'platform.gcp.projectID', 'is required');
    checkCredentials(gcp, 'platform.gcp', issues, (c) => {
      const out: FieldIssue[] = [];
      checkJson(c.serviceAccountJSON, 'platform.gcp.credentials.serviceAccountJSON', out);
      return out;
    });
  }
  if (azure) {
    need(nonEmpty(azure.region), 'platform.azure.region', 'is required');
    need(nonEmpty(azure.baseDomainResourceGroupName), 'platform.azure.baseDomainResourceGroupName', 'is required');
    checkCredentials(azure, 'platform.azure', issues, (c) => {
      const out: FieldIssue[] = [];
      checkJson(c.servicePrincipalJSON, 'platform.azure.credentials.servicePrincipalJSON', out);
      return out;
    });
  }

  if ((req.imageSet === undefined) === (req.releaseImage === undefined)) {
    issues.push({ field: 'imageSet', reason: 'give exactly one of imageSet and releaseImage' });
  } else if (req.imageSet !== undefined) {
    need(isObjectName(req.imageSet), 'imageSet', 'must be the name of a ClusterImageSet');
  } else {
    need(
      nonEmpty(req.releaseImage) && IMAGE.test(req.releaseImage),
      'releaseImage',
      'must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64',
    );
  }

  if (req.pullSecret !== undefined && req.pullSecretRef !== undefined) {
    issues.push({ field: 'pullSecret', reason: 'give at most one of pullSecret and pullSecretRef' });
  } else if (req.pullSecret !== undefined) {
    try {
      const parsed = JSON.parse(req.pullSecret) as { auths?: unknown };
      if (typeof parsed?.auths !== 'object' || parsed.auths === null) throw new Error();
    } catch {
      issues.push({ field: 'pullSecret', reason: 'must be a .dockerconfigjson document with an "auths" object' });
    }
  } else if (req.pullSecretRef !== undefined) {
    need(isObjectName(req.pullSecretRef), 'pullSecretRef', 'must be the name of a Secret');
  }

  checkPool(req.controlPlane, 'controlPlane', 1, 5, issues);
  // openshift-install accepts 1 (single-node) or 3 control-plane nodes; 4 and 5 since 4.17.
  if (req.controlPlane?.replicas === 2)
    issues.push({
      field: 'controlPlane.replicas',
      reason: 'must be 1, 3, 4 or 5 (openshift-install has no 2-node control plane)',
    });
  checkPool(req.compute, 'compute', 0, 250, issues);
  const net = req.networking;
  if (net) {
    net.clusterNetwork?.forEach((n, i) => {
      need(CIDR.test(n?.cidr ?? ''), `networking.clusterNetwork[${i}].cidr`, 'must be a CIDR');
      need(
        Number.isInteger(n?.hostPrefix) && n.hostPrefix >= 1 && n.hostPrefix <= 128,
        `networking.clusterNetwork[${i}].hostPrefix`,
        'must be an integer prefix length',
      );
    });
    net.machineNetwork?.forEach((n, i) =>
      need(CIDR.test(n?.cidr ?? ''), `networking.machineNetwork[${i}].cidr`, 'must be a CIDR'),
    );
    net.serviceNetwork?.forEach((c, i) =>
      need(CIDR.test(c ?? ''), `networking.serviceNetwork[${i}]`, 'must be a CIDR'),
    );
    if (net.networkType !== undefined)
      need(
        ['OVNKubernetes', 'OpenShiftSDN'].includes(net.networkType),
        'networking.networkType',
        'must be OVNKubernetes or OpenShiftSDN',
      );
  }
  if (req.sshKey !== undefined)
    need(SSH_KEY.test(req.sshKey.trim()), 'sshKey', 'must be an OpenSSH public key (ssh-ed25519 AAAA...)');

  checkLabels(req.labels, 'labels', issues);
  checkLabels(req.annotations, 'annotations', issues, false);
  if (req.annotations?.[ANNOTATIONS.deleteAfter] !== undefined) {
    issues.push({ field: `annotations.${ANNOTATIONS.deleteAfter}`, reason: 'set expiry with expiresIn or expiresAt' });
  }
  if (req.powerState !== undefined)
    need(['Running', 'Hibernating'].includes(req.powerState), 'powerState', 'must be Running or Hibernating');
  if (req.hibernateAfter !== undefined)
    need(
      isCrdDuration(req.hibernateAfter),
      'hibernateAfter',
      `must be a Go duration such as 8h or 90m (no "d" unit, at most ${GO_MAX_DURATION}): ${invalidDurationMessage(req.hibernateAfter)}`,
    );
  if (req.expiresIn !== undefined && req.expiresAt !== undefined)
    issues.push({ field: 'expiresIn', reason: 'give at most one of expiresIn and expiresAt' });
  if (req.expiresIn !== undefined) {
    const why = expiresInProblem(req.expiresIn);
    if (why) issues.push({ field: 'expiresIn', reason: why });
  }
  if (req.expiresAt !== undefined) {
    const at = Date.parse(req.expiresAt);
    if (Number.isNaN(at)) issues.push({ field: 'expiresAt', reason: 'must be an RFC 3339 time' });
    else need(at > now, 'expiresAt', 'must be in the future');
  }
  // Hive's installAttemptsLimit is an int32: a larger one is stored and breaks Hive's decoding of the CD.
  if (req.installAttemptsLimit !== undefined)
    need(
      Number.isInteger(req.installAttemptsLimit) &&
        req.installAttemptsLimit >= 1 &&
        req.installAttemptsLimit <= 2_147_483_647,
      'installAttemptsLimit',
      'must be an integer from 1 to 2147483647',
    );

  return issues;
}

/** One Invalid listing every problem, or nothing. */
export function throwIfIssues(issues: FieldIssue[]): void {
  if (issues.length > 0)
    throw new Invalid(`invalid cluster request: ${issues.map((i) => `${i.field} ${i.reason}`).join('; ')}`, issues);
}

export function networkingOf(req: CreateClusterRequest): NetworkingParams {
  return {
    clusterNetwork: req.networking?.clusterNetwork ?? DEFAULT_NETWORKING.clusterNetwork,
    machineNetwork: req.networking?.machineNetwork ?? DEFAULT_NETWORKING.machineNetwork,
    serviceNetwork: req.networking?.serviceNetwork ?? DEFAULT_NETWORKING.serviceNetwork,
    networkType: req.networking?.networkType ?? DEFAULT_NETWORKING.networkType,
  };
}
