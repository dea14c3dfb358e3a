// Hive fills unassigned claims FIFO by creationTimestamp (REFERENCE.md §4.3, assignClustersToClaims). Ties are
// broken by name so every reader agrees on one order.
import type { ClusterClaim, ClusterDeployment } from '../pools/types.js';

export function isUnassigned(claim: ClusterClaim): boolean {
  return !claim.spec.namespace && !claim.metadata.deletionTimestamp;
}

function byAge(a: ClusterClaim, b: ClusterClaim): number {
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  return ta - tb || a.metadata.name.localeCompare(b.metadata.name);
}

/**
 * The unassigned claims on one pool, in the order Hive will fill them. Hive writes the claim's spec.namespace, then
 * the cluster's claimName; a cache that has seen the cluster's write first already knows the claim is served, so a
 * claim named by one of `poolClusters` is not waiting.
 */
export function claimQueue(
  claims: ClusterClaim[],
  pool: { namespace: string; name: string },
  poolClusters: ClusterDeployment[] = [],
): ClusterClaim[] {
  const served = new Set(poolClusters.map((cd) => cd.spec.clusterPoolRef?.claimName).filter(Boolean));
  return claims
    .filter(
      (c) =>
        c.metadata.namespace === pool.namespace &&
        c.spec.clusterPoolName === pool.name &&
        isUnassigned(c) &&
        !served.has(c.metadata.name),
    )
    .sort(byAge);
}

/**
 * How many claims Hive will serve before this one. A claim the queue does not hold yet (read before the cache has
 * it, e.g. right after it was created) goes where Hive will put it.
 */
export function claimsAhead(claim: ClusterClaim, queue: ClusterClaim[]): number {
  const i = queue.findIndex(
    (c) => c.metadata.name === claim.metadata.name && c.metadata.namespace === claim.metadata.namespace,
  );
  return i >= 0 ? i : queue.filter((c) => byAge(c, claim) < 0).length;
}
