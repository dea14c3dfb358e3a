// Hive fills unassigned claims FIFO by creationTimestamp (REFERENCE.md §4.3, assignClustersToClaims). Ties are
// broken by name so every reader agrees on one order.
import type { ClusterClaim } from '../pools/types.js';

export function isUnassigned(claim: ClusterClaim): boolean {
  return !claim.spec.namespace && !claim.metadata.deletionTimestamp;
}

function byAge(a: ClusterClaim, b: ClusterClaim): number {
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  return ta - tb || a.metadata.name.localeCompare(b.metadata.name);
}

/** The unassigned claims on one pool, in the order Hive will fill them. */
export function claimQueue(claims: ClusterClaim[], pool: { namespace: string; name: string }): ClusterClaim[] {
  return claims
    .filter((c) => c.metadata.namespace === pool.namespace && c.spec.clusterPoolName === pool.name && isUnassigned(c))
    .sort(byAge);
}

/** How many claims Hive will serve before this one; undefined when it is not waiting in the queue. */
export function claimsAhead(claim: ClusterClaim, queue: ClusterClaim[]): number | undefined {
  const i = queue.findIndex((c) => c.metadata.name === claim.metadata.name && c.metadata.namespace === claim.metadata.namespace);
  return i < 0 ? undefined : i;
}
