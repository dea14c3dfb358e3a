// What time-based lifecycle reads from a ClusterDeployment (REFERENCE.md §2.1-2.5).
import { findCondition, type ClusterDeployment } from '../types.js';

export const RELOCATE_ANNOTATION = 'hive.openshift.io/relocate';
export const POWERSTATE_PAUSE_ANNOTATION = 'hive.openshift.io/powerstate-pause';

/**
 * A pool cluster no claim holds: Hive's pool controller owns its power state and overwrites manual changes
 * (REFERENCE.md §4.3), so schedules must never touch it. Claimed pool clusters are fair game.
 */
export function isUnclaimedPoolCluster(cd: { spec?: ClusterDeployment['spec'] }): boolean {
  const ref = cd.spec?.clusterPoolRef;
  return Boolean(ref?.poolName) && !ref?.claimName;
}

export function msOf(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** When the cluster finished installing (Hive sets creationTimestamp for adopted clusters). */
export function installedAtMs(cd: ClusterDeployment): number | undefined {
  return msOf(cd.status?.installedTimestamp);
}

/** Since when the cluster has been hibernated (the Hibernating condition's transition to True). */
export function hibernatingSinceMs(cd: ClusterDeployment): number | undefined {
  const c = findCondition(cd, 'Hibernating');
  return c?.status === 'True' ? msOf(c.lastTransitionTime) : undefined;
}

/** spec.powerState as a state; Hive treats an empty value as Running. */
export function requestedState(cd: ClusterDeployment): 'Running' | 'Hibernating' {
  return cd.spec?.powerState === 'Hibernating' ? 'Hibernating' : 'Running';
}
