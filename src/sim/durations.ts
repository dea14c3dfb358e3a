// How long simulated Hive work takes, in milliseconds of simulated time. Defaults follow what a real AWS hub
// shows (REFERENCE §2.4, §2.5, §10): an install of ~40 minutes, a stop of a few minutes, a resume of several
// minutes including Hive's fixed 2-minute ClusterOperator settle pause, and a deprovision of ~5 minutes.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface Durations {
  /** The imageset Job that resolves installerImage/cliImage before a provision starts. */
  imageSet: number;
  /** ClusterProvision stage `initializing` (install pod start, manifests, ignition) before infraID is known. */
  provisionInitializing: number;
  /** ClusterProvision stage `provisioning` until `complete` (openshift-install create cluster). */
  provisionRunning: number;
  /** How far into `provisioning` a failing attempt fails. */
  provisionFailure: number;
  /** Hive's retry backoff unit after a failed provision: 2^installRestarts of these, capped at 24h. */
  provisionRetryBase: number;
  /** ClusterSync's first successful SyncSet apply after install. */
  syncSetApply: number;
  /** Hibernate: `Stopping` until the first poll finds machines still stopping. */
  stopping: number;
  /** Hibernate: `WaitingForMachinesToStop` until every VM is stopped. */
  machinesStopping: number;
  /** Resume step 1: `StartingMachines` (the start call). */
  startingMachines: number;
  /** Resume step 1: `WaitingForMachines`. */
  machinesStarting: number;
  /** Resume step 2: `WaitingForNodes` (CSR approval). */
  nodesStarting: number;
  /** Resume step 3: `PausingForClusterOperatorsToSettle`, fixed at 2 minutes in Hive (constants.ClusterOperatorSettlePause). */
  clusterOperatorSettle: number;
  /** Resume step 4: `WaitingForClusterOperators`. */
  clusterOperators: number;
  /** ClusterDeprovision: the uninstall Job. */
  deprovision: number;
  /** Hive's minimum namespace age before clusterpoolnamespace deletes an empty pool namespace. */
  poolNamespaceMinAge: number;
  /** Hive's SyncSetsNotApplied grace after install before hibernation proceeds anyway. */
  syncSetsGrace: number;
}

export const defaultDurations: Durations = {
  imageSet: 2 * MINUTE,
  provisionInitializing: 3 * MINUTE,
  provisionRunning: 35 * MINUTE,
  provisionFailure: 20 * MINUTE,
  provisionRetryBase: MINUTE,
  syncSetApply: 30 * SECOND,
  stopping: 30 * SECOND,
  machinesStopping: 2 * MINUTE,
  startingMachines: 15 * SECOND,
  machinesStarting: MINUTE,
  nodesStarting: MINUTE,
  clusterOperatorSettle: 2 * MINUTE,
  clusterOperators: 30 * SECOND,
  deprovision: 5 * MINUTE,
  poolNamespaceMinAge: 5 * MINUTE,
  syncSetsGrace: 10 * MINUTE,
};

export const durationNames = Object.keys(defaultDurations) as Array<keyof Durations>;

/** Defaults, then overrides, all divided by `speed` (speed 1000 turns a 40-minute install into 2.4 s). */
export function resolveDurations(overrides: Partial<Durations> = {}, speed = 1): Durations {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`speed must be a positive number, got ${speed}`);
  const out = {} as Durations;
  for (const name of durationNames) {
    const v = overrides[name] ?? defaultDurations[name];
    if (!(v >= 0) || !Number.isFinite(v)) throw new Error(`duration ${name} must be a non-negative number of ms`);
    out[name] = v / speed;
  }
  return out;
}

/** Total simulated install time (imageset + provision stages), for docs and logs. */
export const installTime = (d: Durations): number => d.imageSet + d.provisionInitializing + d.provisionRunning;
