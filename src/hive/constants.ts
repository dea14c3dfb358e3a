// Hive's exact strings (REFERENCE.md §2-3, openshift/hive pkg/constants/constants.go and the CD types). Anything
// Beekeeper writes onto a Hive object must match these to the letter, or Hive silently ignores it.

export const HIVE_GROUP = 'hive.openshift.io';
export const HIVE_VERSION = 'v1';
export const HIVE_API_VERSION = `${HIVE_GROUP}/${HIVE_VERSION}`;

/** Annotations on a ClusterDeployment (REFERENCE.md §3.1). */
export const ANNOTATIONS = {
  /** A Go duration counted from metadata.creationTimestamp; Hive deletes the CD once it passes (§2.6). */
  deleteAfter: 'hive.openshift.io/delete-after',
  /** Truthy: the admission webhook refuses DELETE (§8). */
  protectedDelete: 'hive.openshift.io/protected-delete',
  /** Exactly "true" (string compare, not ParseBool): stop after the first failed provision. */
  tryInstallOnce: 'hive.openshift.io/try-install-once',
  fakeCluster: 'hive.openshift.io/fake-cluster',
  reconcilePause: 'hive.openshift.io/reconcile-pause',
  powerStatePause: 'hive.openshift.io/powerstate-pause',
  syncSetPause: 'hive.openshift.io/syncset-pause',
  /** `<ClusterRelocate name>/<outgoing|complete|incoming>`, written only by Hive (§6). */
  relocate: 'hive.openshift.io/relocate',
  removeClusterFromPool: 'hive.openshift.io/remove-cluster-from-pool',
} as const;

/** Labels (REFERENCE.md §3.2). */
export const LABELS = {
  clusterPlatform: 'hive.openshift.io/cluster-platform',
  clusterRegion: 'hive.openshift.io/cluster-region',
  clusterType: 'hive.openshift.io/cluster-type',
  version: 'hive.openshift.io/version',
  versionMajorMinorPatch: 'hive.openshift.io/version-major-minor-patch',
  /** On pool CDs; note the spelling differs from the namespace label `cluster-pool-name`. */
  clusterPoolName: 'hive.openshift.io/clusterpool-name',
  clusterPoolNamespace: 'hive.openshift.io/clusterpool-namespace',
  clusterDeploymentName: 'hive.openshift.io/cluster-deployment-name',
  secretType: 'hive.openshift.io/secret-type',
  resumeSkipsClusterOperators: 'hive.openshift.io/resume-skips-cluster-operators',
} as const;

/** Beekeeper's own marks on objects it creates. */
export const BEEKEEPER_LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
} as const;
export const BEEKEEPER = 'beekeeper';

/** `spec.powerState`: the CRD enum allows only these ("" means Running). */
export const SPEC_POWER_STATES = ['', 'Running', 'Hibernating'] as const;
export type SpecPowerState = (typeof SPEC_POWER_STATES)[number];

/** Every `status.powerState` value (REFERENCE.md §2.2). There is no `Resuming`. */
export const POWER_STATES = [
  'Running',
  'Hibernating',
  'SyncSetsNotApplied',
  'StartingMachines',
  'FailedToStartMachines',
  'Stopping',
  'FailedToStop',
  'WaitingForMachinesToStop',
  'WaitingForMachines',
  'WaitingForNodes',
  'PausingForClusterOperatorsToSettle',
  'WaitingForClusterOperators',
  'Unknown',
] as const;
export type PowerState = (typeof POWER_STATES)[number];

/** The stop sequence, in Hive's order (§2.5 "Stopping sequence"). */
export const STOPPING_STATES: readonly PowerState[] = [
  'SyncSetsNotApplied',
  'Stopping',
  'FailedToStop',
  'WaitingForMachinesToStop',
];

/** The resume sequence and the step Hive prints for each ("(step n/4)", §2.5 "Resume sequence"). */
export const RESUME_STEPS: Readonly<Partial<Record<PowerState, number>>> = {
  StartingMachines: 1,
  FailedToStartMachines: 1,
  WaitingForMachines: 1,
  WaitingForNodes: 2,
  PausingForClusterOperatorsToSettle: 3,
  WaitingForClusterOperators: 4,
};
export const RESUME_STEP_COUNT = 4;

export const CONDITIONS = {
  requirementsMet: 'RequirementsMet',
  provisioned: 'Provisioned',
  provisionFailed: 'ProvisionFailed',
  provisionStopped: 'ProvisionStopped',
  installLaunchError: 'InstallLaunchError',
  dnsNotReady: 'DNSNotReady',
  authenticationFailure: 'AuthenticationFailure',
  syncSetFailed: 'SyncSetFailed',
  deprovisionLaunchError: 'DeprovisionLaunchError',
  hibernating: 'Hibernating',
  ready: 'Ready',
  unreachable: 'Unreachable',
  relocationFailed: 'RelocationFailed',
} as const;

/** Condition types whose desired status is True (`PositivePolarityClusterDeploymentConditions`); all others are
 * negative: True means a problem. */
export const POSITIVE_POLARITY_CONDITIONS: readonly string[] = [
  'ActiveAPIURLOverride',
  'Hibernating',
  'Ready',
  'AWSPrivateLinkReady',
  'ClusterInstallCompleted',
  'ClusterInstallRequirementsMet',
  'RequirementsMet',
  'Provisioned',
];

/** Reasons of the `Provisioned` condition (§2.3). */
export const PROVISIONED_REASONS = {
  provisioning: 'Provisioning',
  provisionStopped: 'ProvisionStopped',
  provisioned: 'Provisioned',
  deprovisioning: 'Deprovisioning',
  deprovisionFailed: 'DeprovisionFailed',
  deprovisioned: 'Deprovisioned',
} as const;

/** Reasons shared by the `Hibernating` and `Ready` conditions that matter to a power job (§2.5). */
export const POWER_REASONS = {
  unsupported: 'Unsupported',
  powerStatePaused: 'PowerStatePaused',
  clusterDeploymentDeleted: 'ClusterDeploymentDeleted',
  hibernating: 'Hibernating',
  running: 'Running',
} as const;

/** Keys of the Secrets Hive writes for an installed cluster (§2.1 clusterMetadata). */
export const SECRET_KEYS = {
  kubeconfig: 'kubeconfig',
  rawKubeconfig: 'raw-kubeconfig',
  username: 'username',
  password: 'password',
  installConfig: 'install-config.yaml',
  dockerConfigJson: '.dockerconfigjson',
  awsAccessKeyId: 'aws_access_key_id',
  awsSecretAccessKey: 'aws_secret_access_key',
  gcpServiceAccount: 'osServiceAccount.json',
  azureServicePrincipal: 'osServicePrincipal.json',
} as const;
