// The few ClusterDeployment fields time-based lifecycle reads, typed structurally so this module stays pure.
// Field names are Hive's (REFERENCE.md §2.1-2.5).

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CdLike {
  metadata: {
    name: string;
    namespace?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: {
    installed?: boolean;
    powerState?: string;
    clusterPoolRef?: { namespace?: string; poolName?: string; claimName?: string; claimedTimestamp?: string };
  };
  status?: {
    powerState?: string;
    installedTimestamp?: string;
    conditions?: Condition[];
  };
}

export const RELOCATE_ANNOTATION = 'hive.openshift.io/relocate';
export const POWERSTATE_PAUSE_ANNOTATION = 'hive.openshift.io/powerstate-pause';

/** Go strconv.ParseBool's true spellings, which Hive uses for its boolean annotations. */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/**
 * A pool cluster no claim holds: Hive's pool controller owns its power state and overwrites manual changes
 * (REFERENCE.md §4.3), so schedules must never touch it. Claimed pool clusters are fair game.
 */
export function isUnclaimedPoolCluster(cd: CdLike): boolean {
  const ref = cd.spec?.clusterPoolRef;
  return Boolean(ref?.poolName) && !ref?.claimName;
}

export function condition(cd: CdLike, type: string): Condition | undefined {
  return cd.status?.conditions?.find((c) => c.type === type);
}

export function msOf(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** When the cluster finished installing (Hive sets creationTimestamp for adopted clusters). */
export function installedAtMs(cd: CdLike): number | undefined {
  return msOf(cd.status?.installedTimestamp);
}

/** Since when the cluster has been hibernated (the Hibernating condition's transition to True). */
export function hibernatingSinceMs(cd: CdLike): number | undefined {
  const c = condition(cd, 'Hibernating');
  return c?.status === 'True' ? msOf(c.lastTransitionTime) : undefined;
}

/** spec.powerState as a state; Hive treats an empty value as Running. */
export function requestedState(cd: CdLike): 'Running' | 'Hibernating' {
  return cd.spec?.powerState === 'Hibernating' ? 'Hibernating' : 'Running';
}

export function clusterKey(hub: string, cd: CdLike): string {
  return `${hub}/${cd.metadata.namespace ?? ''}/${cd.metadata.name}`;
}
