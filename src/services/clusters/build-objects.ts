// From a validated request to the objects Hive expects (REFERENCE.md §2.1): the install-config Secret, inline
// credential Secrets, and the ClusterDeployment referencing them. Secret values stay out of the job plan.
import { ANNOTATIONS, BEEKEEPER, BEEKEEPER_LABELS, HIVE_API_VERSION, SECRET_KEYS } from '../../hive/constants.js';
import { installConfigYaml, type InstallConfigParams } from '../../hive/install-config.js';
import type { ClusterDeployment, ClusterDeploymentPlatform, Secret } from '../../hive/types.js';
import type { ExpiryActor } from '../expiry/expiry-record.js';
import type { KubeObject } from '../ports.js';
import { networkingOf, platformOf, type CreateClusterRequest } from './create-request.js';

/** Beekeeper's label on Secrets it writes for a cluster, so a retry can tell its own leftovers from others'. */
export const CLUSTER_LABEL = 'beekeeper.io/cluster-deployment';

/** What the create job needs; contains no secret value (the job payload guard checks too). */
export interface CreatePlan {
  hub: string;
  namespace: string;
  name: string;
  createNamespace: boolean;
  /** install-config.yaml; no credentials in it (see hive/install-config.ts). */
  installConfigYaml: string;
  clusterDeployment: ClusterDeployment;
  /** Secrets the CD should own (garbage-collected with it). */
  ownedSecrets: string[];
  /** Absolute expiry, converted to delete-after once the CD has its creationTimestamp. */
  expiresAt?: string;
  /** Who created the cluster with an expiry: recorded as its first expiry change once the CD exists. */
  expiryActor?: ExpiryActor;
  /** The ClusterDeployment the request wrote (absent until it did): the job follows that one and never makes another. */
  uid?: string;
}

export const secretNames = (name: string) => ({
  installConfig: `${name}-install-config`,
  pullSecret: `${name}-pull-secret`,
  aws: `${name}-aws-creds`,
  gcp: `${name}-gcp-creds`,
  azure: `${name}-azure-creds`,
});

const b64 = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('base64')]));

const ourLabels = (name: string) => ({ [BEEKEEPER_LABELS.managedBy]: BEEKEEPER, [CLUSTER_LABEL]: name });

/** A Secret Beekeeper wrote for this cluster (a leftover of an earlier attempt may be reused, never anyone else's). */
export const isSecretFor = (secret: KubeObject, clusterName: string) =>
  secret.metadata.labels?.[BEEKEEPER_LABELS.managedBy] === BEEKEEPER &&
  secret.metadata.labels?.[CLUSTER_LABEL] === clusterName;

/** The Secrets a create writes under fixed names: the install-config, and those with inline credentials. */
export function writtenSecretNames(req: CreateClusterRequest): string[] {
  return [secretNames(req.name).installConfig, ...inlineSecrets(req).map((s) => s.metadata.name)];
}

/** Inline Secrets to write during the request (never queued). */
export function inlineSecrets(req: CreateClusterRequest): Secret[] {
  const names = secretNames(req.name);
  const meta = (name: string) => ({ name, namespace: req.namespace, labels: ourLabels(req.name) });
  const out: Secret[] = [];
  if (req.pullSecret !== undefined) {
    out.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(names.pullSecret),
      type: 'kubernetes.io/dockerconfigjson',
      data: b64({ [SECRET_KEYS.dockerConfigJson]: req.pullSecret }),
    });
  }
  const { aws, gcp, azure } = req.platform;
  if (aws?.credentials) {
    out.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(names.aws),
      type: 'Opaque',
      data: b64({
        [SECRET_KEYS.awsAccessKeyId]: aws.credentials.accessKeyID,
        [SECRET_KEYS.awsSecretAccessKey]: aws.credentials.secretAccessKey,
      }),
    });
  }
  if (gcp?.credentials) {
    out.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(names.gcp),
      type: 'Opaque',
      data: b64({ [SECRET_KEYS.gcpServiceAccount]: gcp.credentials.serviceAccountJSON }),
    });
  }
  if (azure?.credentials) {
    out.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(names.azure),
      type: 'Opaque',
      data: b64({ [SECRET_KEYS.azureServicePrincipal]: azure.credentials.servicePrincipalJSON }),
    });
  }
  return out;
}

/** Secrets the request refers to by name and that must exist before Hive can use them. */
export function referencedSecrets(req: CreateClusterRequest): Array<{ field: string; name: string }> {
  const refs: Array<{ field: string; name: string }> = [];
  if (req.pullSecretRef) refs.push({ field: 'pullSecretRef', name: req.pullSecretRef });
  for (const p of ['aws', 'gcp', 'azure'] as const) {
    const ref = req.platform?.[p]?.credentialsSecretRef;
    if (ref) refs.push({ field: `platform.${p}.credentialsSecretRef`, name: ref });
  }
  return refs;
}

function cdPlatform(req: CreateClusterRequest): ClusterDeploymentPlatform {
  const names = secretNames(req.name);
  const { aws, gcp, azure } = req.platform;
  if (aws) {
    return {
      aws: {
        region: aws.region,
        credentialsSecretRef: { name: aws.credentialsSecretRef ?? names.aws },
        ...(aws.userTags && Object.keys(aws.userTags).length ? { userTags: aws.userTags } : {}),
      },
    };
  }
  if (gcp)
    return { gcp: { region: gcp.region, credentialsSecretRef: { name: gcp.credentialsSecretRef ?? names.gcp } } };
  if (azure) {
    return {
      azure: {
        region: azure.region,
        baseDomainResourceGroupName: azure.baseDomainResourceGroupName,
        ...(azure.cloudName ? { cloudName: azure.cloudName } : {}),
        credentialsSecretRef: { name: azure.credentialsSecretRef ?? names.azure },
      },
    };
  }
  return { none: {} };
}

/** The install-config Secret (`installConfigSecretRef`, key `install-config.yaml`). */
export function installConfigSecret(plan: CreatePlan): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretNames(plan.name).installConfig, namespace: plan.namespace, labels: ourLabels(plan.name) },
    type: 'Opaque',
    data: { [SECRET_KEYS.installConfig]: Buffer.from(plan.installConfigYaml, 'utf8').toString('base64') },
  };
}

export function buildPlan(req: CreateClusterRequest): CreatePlan {
  const platform = platformOf(req)!;
  const names = secretNames(req.name);
  const params: InstallConfigParams = {
    name: req.name,
    baseDomain: req.baseDomain,
    platform,
    region: req.platform.aws?.region ?? req.platform.gcp?.region ?? req.platform.azure?.region,
    gcpProjectID: req.platform.gcp?.projectID,
    azureBaseDomainResourceGroupName: req.platform.azure?.baseDomainResourceGroupName,
    azureCloudName: req.platform.azure?.cloudName,
    userTags: req.platform.aws?.userTags,
    controlPlane: { replicas: req.controlPlane?.replicas ?? 3, instanceType: req.controlPlane?.instanceType },
    compute: { replicas: req.compute?.replicas ?? 3, instanceType: req.compute?.instanceType },
    networking: networkingOf(req),
    sshKey: req.sshKey?.trim(),
  };
  const pullSecretName = req.pullSecretRef ?? (req.pullSecret !== undefined ? names.pullSecret : undefined);
  const annotations: Record<string, string> = { ...req.annotations };
  if (req.expiresIn) annotations[ANNOTATIONS.deleteAfter] = req.expiresIn;
  const clusterDeployment: ClusterDeployment = {
    apiVersion: HIVE_API_VERSION,
    kind: 'ClusterDeployment',
    metadata: {
      name: req.name,
      namespace: req.namespace,
      labels: { ...req.labels, [BEEKEEPER_LABELS.managedBy]: BEEKEEPER },
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: {
      clusterName: req.name,
      baseDomain: req.baseDomain,
      platform: cdPlatform(req),
      ...(pullSecretName ? { pullSecretRef: { name: pullSecretName } } : {}),
      provisioning: {
        installConfigSecretRef: { name: names.installConfig },
        ...(req.imageSet ? { imageSetRef: { name: req.imageSet } } : { releaseImage: req.releaseImage }),
      },
      ...(req.powerState ? { powerState: req.powerState } : {}),
      ...(req.hibernateAfter ? { hibernateAfter: req.hibernateAfter } : {}),
      ...(req.installAttemptsLimit ? { installAttemptsLimit: req.installAttemptsLimit } : {}),
      ...(req.preserveOnDelete !== undefined ? { preserveOnDelete: req.preserveOnDelete } : {}),
    },
  };
  return {
    hub: req.hub,
    namespace: req.namespace,
    name: req.name,
    createNamespace: req.createNamespace === true,
    installConfigYaml: installConfigYaml(params),
    clusterDeployment,
    ownedSecrets: writtenSecretNames(req),
    ...(req.expiresAt ? { expiresAt: new Date(req.expiresAt).toISOString() } : {}),
  };
}
