// POST /v1/pools and PATCH: a compact request -> Hive's ClusterPool spec and its install-config template Secret.
// Every bad field is named; nothing is written until all checks pass.
import { formatDuration, parseDuration } from '../../hive/claims/duration.js';
import { BEEKEEPER, BEEKEEPER_LABELS, HIVE_API_VERSION, SECRET_KEYS } from '../../hive/constants.js';
import { DEFAULT_NETWORKING, installConfigYaml } from '../../hive/install-config.js';
import { Invalid, type FieldIssue } from '../../hive/errors.js';
import { isDnsLabel, isDnsSubdomain } from '../../hive/names.js';
import type { ClusterPool } from '../../hive/pools/types.js';
import type { Secret } from '../../hive/types.js';
import { checkName } from '../claims/claim-request.js';

export interface PoolPlatformRequest {
  /** Pools support aws, gcp and azure here (Hive's pool controller also knows openstack/vsphere). */
  type: 'aws' | 'gcp' | 'azure';
  region: string;
  /** Secret in the pool's namespace; Hive copies it into every cluster namespace (REFERENCE.md §4.1). */
  credentialsSecretRef: string;
  gcpProjectID?: string;
  azureBaseDomainResourceGroupName?: string;
}

export const UNSETTABLE = ['maxSize', 'maxConcurrent', 'hibernateAfter', 'claimLifetime'] as const;
export type Unsettable = (typeof UNSETTABLE)[number];

export interface PoolSettings {
  size?: number;
  runningCount?: number;
  maxSize?: number;
  maxConcurrent?: number;
  hibernateAfter?: string;
  claimLifetime?: { default?: string; maximum?: string };
  /** PATCH only: settings to remove. */
  unset?: Unsettable[];
  /** Labels on the ClusterPool itself: what claims select by (owner, team, anything). */
  labels?: Record<string, string>;
  /** Labels Hive copies onto each new cluster of the pool. */
  clusterLabels?: Record<string, string>;
}

export interface PoolCreateRequest extends PoolSettings {
  hub: string;
  namespace: string;
  name: string;
  platform: PoolPlatformRequest;
  baseDomain: string;
  imageSetName: string;
  pullSecretRef?: string;
  /** An existing install-config template Secret; otherwise Beekeeper writes one from `installConfig`. */
  installConfigSecretTemplateRef?: string;
  installConfig?: {
    controlPlane?: { replicas?: number; instanceType?: string };
    compute?: { replicas?: number; instanceType?: string };
    sshKey?: string;
  };
  resumeTimeout?: string;
  skipMachinePools?: boolean;
}

/** Hive's counts are int32: a larger one is stored and then breaks Hive's own decoding of the pool. */
const INT32_MAX = 2_147_483_647;
const count = (issues: FieldIssue[], field: string, value: number | undefined, min = 0) => {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > INT32_MAX)
    issues.push({ field, reason: `must be a whole number from ${min} to ${INT32_MAX}` });
};
const duration = (issues: FieldIssue[], field: string, value: string | undefined) => {
  if (value === undefined) return;
  if (parseDuration(value) === undefined)
    issues.push({ field, reason: `"${value}" is not a duration such as 30m or 8h (units h, m, s; no d)` });
};
const labelIssues = (issues: FieldIssue[], field: string, labels: Record<string, string> | undefined) => {
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(k))
      issues.push({ field: `${field}.${k}`, reason: 'is not a valid label key' });
    if (v.length > 63 || !/^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/.test(v))
      issues.push({ field: `${field}.${k}`, reason: `"${v}" is not a valid label value` });
  }
};

/** Checks the settings as they will be after applying `next` over `current` (so PATCH sees the whole picture). */
export function settingsIssues(next: PoolSettings, current: PoolSettings = {}): FieldIssue[] {
  const issues: FieldIssue[] = [];
  count(issues, 'size', next.size);
  count(issues, 'runningCount', next.runningCount);
  count(issues, 'maxSize', next.maxSize, 1);
  count(issues, 'maxConcurrent', next.maxConcurrent, 1);
  duration(issues, 'hibernateAfter', next.hibernateAfter);
  duration(issues, 'claimLifetime.default', next.claimLifetime?.default);
  duration(issues, 'claimLifetime.maximum', next.claimLifetime?.maximum);
  labelIssues(issues, 'labels', next.labels);
  labelIssues(issues, 'clusterLabels', next.clusterLabels);
  for (const field of next.unset ?? []) {
    if (next[field] !== undefined) issues.push({ field: 'unset', reason: `${field} is both set and unset` });
  }
  const merged: PoolSettings = { ...current, ...next };
  for (const field of next.unset ?? []) delete merged[field];
  if (typeof merged.maxSize === 'number' && merged.size !== undefined && merged.maxSize < merged.size) {
    issues.push({
      field: next.maxSize !== undefined ? 'maxSize' : 'size',
      reason: `maxSize ${merged.maxSize} is below size ${merged.size}: the pool could never fill`,
    });
  }
  const life = merged.claimLifetime;
  const def = life?.default ? parseDuration(life.default) : undefined;
  const max = life?.maximum ? parseDuration(life.maximum) : undefined;
  if (def !== undefined && max !== undefined && def > max) {
    issues.push({
      field: 'claimLifetime.default',
      reason: `${life!.default} is longer than claimLifetime.maximum ${life!.maximum}; Hive would silently cut it`,
    });
  }
  return issues;
}

export const templateSecretName = (pool: string) => `${pool}-install-config-template`;

export function checkCreateRequest(req: PoolCreateRequest): void {
  const issues: FieldIssue[] = [];
  for (const field of ['hub', 'namespace', 'name', 'baseDomain', 'imageSetName'] as const) {
    if (!req[field]) issues.push({ field, reason: 'is required' });
  }
  try {
    if (req.name) checkName(req.name, 'name');
  } catch (err) {
    issues.push(...(err as Invalid).fields);
  }
  // Written into every cluster's install-config: ".." or "a b" there fails each install, not this request.
  if (req.baseDomain && !isDnsSubdomain(req.baseDomain))
    issues.push({ field: 'baseDomain', reason: 'must be a DNS domain such as example.com' });
  // Secrets named in the pool's namespace: a name no Secret can have fails every install, not this request.
  for (const [field, ref] of [
    ['pullSecretRef', req.pullSecretRef],
    ['installConfigSecretTemplateRef', req.installConfigSecretTemplateRef],
    ['platform.credentialsSecretRef', req.platform?.credentialsSecretRef],
  ] as const) {
    if (ref && !isDnsSubdomain(ref)) issues.push({ field, reason: 'must be the name of a Secret (a DNS subdomain)' });
  }
  // Checked before any call to the hub, where an unpaired surrogate in a URL was a 500.
  if (req.namespace && !isDnsLabel(req.namespace))
    issues.push({ field: 'namespace', reason: 'must be a DNS label (lower-case alphanumerics and "-", at most 63)' });
  if (req.size === undefined)
    issues.push({ field: 'size', reason: 'is required (the number of unclaimed clusters to keep)' });
  if (!['aws', 'gcp', 'azure'].includes(req.platform?.type))
    issues.push({ field: 'platform.type', reason: 'must be aws, gcp or azure' });
  if (!req.platform?.region) issues.push({ field: 'platform.region', reason: 'is required' });
  if (!req.platform?.credentialsSecretRef)
    issues.push({ field: 'platform.credentialsSecretRef', reason: 'is required: a Secret in the pool namespace' });
  if (req.platform?.type === 'gcp' && !req.platform.gcpProjectID)
    issues.push({ field: 'platform.gcpProjectID', reason: 'is required for gcp' });
  if (req.platform?.type === 'azure' && !req.platform.azureBaseDomainResourceGroupName) {
    issues.push({ field: 'platform.azureBaseDomainResourceGroupName', reason: 'is required for azure' });
  }
  if (req.installConfigSecretTemplateRef && req.installConfig) {
    issues.push({ field: 'installConfig', reason: 'give installConfig or installConfigSecretTemplateRef, not both' });
  }
  count(issues, 'installConfig.controlPlane.replicas', req.installConfig?.controlPlane?.replicas, 1);
  count(issues, 'installConfig.compute.replicas', req.installConfig?.compute?.replicas, 0);
  duration(issues, 'resumeTimeout', req.resumeTimeout);
  if (req.unset) issues.push({ field: 'unset', reason: 'only for PATCH' });
  issues.push(...settingsIssues(req));
  if (issues.length)
    throw new Invalid(
      `the pool request has ${issues.length} problem${issues.length === 1 ? '' : 's'}: ${issues.map((i) => `${i.field}: ${i.reason}`).join('; ')}`,
      issues,
    );
}

/** The install-config template: Hive replaces only metadata.name and baseDomain per cluster (REFERENCE.md §4.1). */
export function templateSecret(req: PoolCreateRequest): Secret {
  const yaml = installConfigYaml({
    name: req.name,
    baseDomain: req.baseDomain,
    platform: req.platform.type,
    region: req.platform.region,
    gcpProjectID: req.platform.gcpProjectID,
    azureBaseDomainResourceGroupName: req.platform.azureBaseDomainResourceGroupName,
    controlPlane: {
      replicas: req.installConfig?.controlPlane?.replicas ?? 3,
      instanceType: req.installConfig?.controlPlane?.instanceType,
    },
    compute: {
      replicas: req.installConfig?.compute?.replicas ?? 3,
      instanceType: req.installConfig?.compute?.instanceType,
    },
    networking: DEFAULT_NETWORKING,
    sshKey: req.installConfig?.sshKey,
  });
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: templateSecretName(req.name),
      namespace: req.namespace,
      labels: { [BEEKEEPER_LABELS.managedBy]: BEEKEEPER },
    },
    type: 'Opaque',
    data: { [SECRET_KEYS.installConfig]: Buffer.from(yaml).toString('base64') },
  };
}

export function clusterPool(req: PoolCreateRequest): ClusterPool {
  const p = req.platform;
  const platform = {
    [p.type]: {
      region: p.region,
      credentialsSecretRef: { name: p.credentialsSecretRef },
      ...(p.type === 'azure' ? { baseDomainResourceGroupName: p.azureBaseDomainResourceGroupName } : {}),
    },
  };
  return {
    apiVersion: HIVE_API_VERSION,
    kind: 'ClusterPool',
    metadata: {
      name: req.name,
      namespace: req.namespace,
      labels: { ...req.labels, [BEEKEEPER_LABELS.managedBy]: BEEKEEPER },
    },
    spec: {
      platform,
      size: req.size!,
      baseDomain: req.baseDomain,
      imageSetRef: { name: req.imageSetName },
      installConfigSecretTemplateRef: { name: req.installConfigSecretTemplateRef ?? templateSecretName(req.name) },
      ...(req.pullSecretRef ? { pullSecretRef: { name: req.pullSecretRef } } : {}),
      ...(req.runningCount !== undefined ? { runningCount: req.runningCount } : {}),
      ...(req.maxSize !== undefined ? { maxSize: req.maxSize } : {}),
      ...(req.maxConcurrent !== undefined ? { maxConcurrent: req.maxConcurrent } : {}),
      ...(req.hibernateAfter ? { hibernateAfter: normalized(req.hibernateAfter) } : {}),
      ...(req.claimLifetime ? { claimLifetime: lifetimeSpec(req.claimLifetime) } : {}),
      ...(req.clusterLabels ? { labels: req.clusterLabels } : {}),
      ...(req.resumeTimeout ? { hibernationConfig: { resumeTimeout: normalized(req.resumeTimeout) } } : {}),
      ...(req.skipMachinePools !== undefined ? { skipMachinePools: req.skipMachinePools } : {}),
    },
  };
}

const normalized = (d: string) => formatDuration(parseDuration(d)!);
const lifetimeSpec = (l: { default?: string; maximum?: string }) => ({
  ...(l.default ? { default: normalized(l.default) } : {}),
  ...(l.maximum ? { maximum: normalized(l.maximum) } : {}),
});

/** The merge patch for PATCH /v1/pools/{id}; `unset` fields become `null`, which a JSON merge patch removes. */
export function settingsPatch(s: PoolSettings): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const field of s.unset ?? []) spec[field] = null;
  if (s.size !== undefined) spec.size = s.size;
  if (s.runningCount !== undefined) spec.runningCount = s.runningCount;
  if (s.maxSize !== undefined) spec.maxSize = s.maxSize;
  if (s.maxConcurrent !== undefined) spec.maxConcurrent = s.maxConcurrent;
  if (s.hibernateAfter !== undefined) spec.hibernateAfter = normalized(s.hibernateAfter);
  if (s.claimLifetime !== undefined) spec.claimLifetime = lifetimeSpec(s.claimLifetime);
  if (s.clusterLabels !== undefined) spec.labels = s.clusterLabels;
  const patch: Record<string, unknown> = Object.keys(spec).length ? { spec } : {};
  if (s.labels !== undefined) patch.metadata = { labels: s.labels };
  return patch;
}
