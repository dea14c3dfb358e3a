// What a pool can hand to its waiting claims, read from its ClusterDeployments and claims together. Hive assigns in
// two writes, the claim's spec.namespace first and the cluster's claimName second (REFERENCE.md §4.3), and the two
// kinds reach the cache on separate watches, in either order. So a cluster counts as taken when either side says so,
// and the counts come from the clusters themselves rather than from the pool's status (written by yet another
// reconcile): a momentary gap between caches must not read as "no cluster for you" or "pool at capacity".
import { poolClusterState } from '../pools/pool-clusters.js';
import type { ClusterClaim, ClusterDeployment, ClusterPool } from '../pools/types.js';
import { claimQueue } from './claim-queue.js';

export type ComingKind = 'ready' | 'resuming' | 'hibernated' | 'installing';

export interface PoolSupply {
  /** Unassigned claims in Hive's order. */
  queue: ClusterClaim[];
  /**
   * Unclaimed clusters on their way to the queue, soonest first: ready ones (Hive assigns them now), then resuming,
   * then hibernated (Hive resumes them for waiting claims), then installing; each group oldest first, as Hive
   * orders them. The claim at queue position i gets about the i-th.
   */
  coming: Array<{ cd: ClusterDeployment; kind: ComingKind }>;
  /** Clusters whose claimName names a claim, by claim name (the cache may show this before the claim's side). */
  byClaim: Map<string, ClusterDeployment>;
  /** Every cluster of the pool, claimed and deleting ones included: what maxSize counts. */
  total: number;
  claimed: number;
  /** Being deleted, or marked for removal after a release: capacity frees when they are gone. */
  removing: number;
  /** What maxConcurrent counts: unclaimed installs and deletions in progress. */
  installing: number;
  deleting: number;
}

const age = (cd: ClusterDeployment) => Date.parse(cd.metadata.creationTimestamp ?? '') || 0;
const byAge = (a: ClusterDeployment, b: ClusterDeployment) =>
  age(a) - age(b) || (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '');

function comingKind(cd: ClusterDeployment): ComingKind | undefined {
  const state = poolClusterState(cd);
  if (state === 'ready') return 'ready';
  if (state === 'installing') return 'installing';
  if (state !== 'standby') return undefined;
  return cd.spec.powerState === 'Running' ? 'resuming' : 'hibernated';
}

const ORDER: ComingKind[] = ['ready', 'resuming', 'hibernated', 'installing'];

export function poolSupply(pool: ClusterPool, claims: ClusterClaim[], poolClusters: ClusterDeployment[]): PoolSupply {
  const ref = { namespace: pool.metadata.namespace!, name: pool.metadata.name };
  const named = new Set(
    claims
      .filter((c) => c.spec.clusterPoolName === ref.name)
      .map((c) => c.spec.namespace)
      .filter(Boolean),
  );
  const byClaim = new Map<string, ClusterDeployment>();
  const coming: PoolSupply['coming'] = [];
  let claimed = 0;
  let removing = 0;
  let installing = 0;
  let deleting = 0;
  for (const cd of poolClusters) {
    const state = poolClusterState(cd);
    const claimName = cd.spec.clusterPoolRef?.claimName;
    if (claimName) byClaim.set(claimName, cd);
    if (cd.metadata.deletionTimestamp) deleting += 1;
    if (state === 'deleting') removing += 1;
    if (state === 'claimed' || (state !== 'deleting' && named.has(cd.metadata.namespace))) {
      claimed += 1;
      continue;
    }
    if (state === 'installing') installing += 1;
    const kind = comingKind(cd);
    if (kind) coming.push({ cd, kind });
  }
  coming.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || byAge(a.cd, b.cd));
  return {
    queue: claimQueue(claims, ref, poolClusters),
    coming,
    byClaim,
    total: poolClusters.length,
    claimed,
    removing,
    installing,
    deleting,
  };
}
