// The claim wait histogram: one observation per claim when Hive reports ClusterRunning=True, from informer events.
// Only the metric lives here; time-to-ready estimates read the pool's history from Kubernetes (hive/claims/eta.ts).
// One observation per claim fleet-wide: every scheduler replica watches, but only the one holding the scheduler
// lease (`owner`) observes; the others still mark the claim seen, so a replica that takes the lease later does not
// observe it again.
import { claimWaitMs } from '../../hive/claims/eta.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { HiveStore } from '../ports.js';

/** Calls `onWait` once per claim that reaches Running after the watch starts. Returns the unsubscribe function. */
export function watchClaimWaits(deps: {
  store: HiveStore;
  onWait: (poolId: string, seconds: number) => void;
  /** True while this process is the one that observes (the scheduler lease holder); default always. */
  owner?: () => boolean;
}): () => void {
  // Claims already running when we start were observed by whoever ran before us; uids are forgotten on delete.
  const seen = new Set<string>();
  const uidOf = (hub: string, c: ClusterClaim) => c.metadata.uid ?? `${hub}/${c.metadata.namespace}/${c.metadata.name}`;
  for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim'))
    if (claimWaitMs(object) !== undefined) seen.add(uidOf(hub, object));
  return deps.store.onChange<ClusterClaim>('ClusterClaim', (hub, type, claim) => {
    const uid = uidOf(hub, claim);
    if (type === 'DELETED') return void seen.delete(uid);
    const ms = claimWaitMs(claim);
    if (ms === undefined || seen.has(uid)) return;
    seen.add(uid);
    if (deps.owner && !deps.owner()) return;
    deps.onWait(`${hub}/${claim.metadata.namespace}/${claim.spec.clusterPoolName}`, ms / 1000);
  });
}
