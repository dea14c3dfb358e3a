// The clusters of a pool, sorted into what Hive counts (REFERENCE.md §4.2) plus what Hive does not report.
import { REMOVE_FROM_POOL_ANNOTATION } from './labels.js';
import { findCondition } from '../types.js';
import type { ClusterDeployment } from './types.js';

export type PoolClusterState = 'installing' | 'ready' | 'standby' | 'broken' | 'claimed' | 'deleting';

export function poolClusterState(cd: ClusterDeployment): PoolClusterState {
  if (cd.metadata.deletionTimestamp || cd.metadata.annotations?.[REMOVE_FROM_POOL_ANNOTATION] === 'true')
    return 'deleting';
  if (cd.spec.clusterPoolRef?.claimName) return 'claimed';
  if (findCondition(cd, 'ProvisionStopped')?.status === 'True') return 'broken';
  if (!cd.spec.installed) return 'installing';
  return cd.status?.powerState === 'Running' ? 'ready' : 'standby';
}

export function countByState(cds: ClusterDeployment[]): Record<PoolClusterState, number> {
  const counts: Record<PoolClusterState, number> = {
    installing: 0,
    ready: 0,
    standby: 0,
    broken: 0,
    claimed: 0,
    deleting: 0,
  };
  for (const cd of cds) counts[poolClusterState(cd)] += 1;
  return counts;
}

/**
 * Why deleting the pool would not finish: Hive leaves claimed clusters alone and keeps its finalizer until every
 * cluster is gone (REFERENCE.md §4.3, reconcileDeletedPool), so claims must be released first.
 */
export function deletionBlockers(cds: ClusterDeployment[]): Array<{ cluster: string; claim: string }> {
  return cds
    .filter((cd) => poolClusterState(cd) === 'claimed')
    .map((cd) => ({
      cluster: `${cd.metadata.namespace}/${cd.metadata.name}`,
      claim: cd.spec.clusterPoolRef!.claimName!,
    }));
}
