// Each pool's recent claim waits (creation -> ClusterRunning=True), for time-to-ready estimates and the wait
// histogram. Learned from the claims in the cache and from claim events, so every API replica builds the same
// picture without any shared store; it is an estimate, so losing it on restart costs nothing durable.
import { claimWaitMs } from '../../hive/claims/eta.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { HiveStore } from '../ports.js';

const KEEP = 20;

export interface ClaimHistory {
  /** Recent waits on the pool `hub/namespace/name`, oldest first, in ms. */
  recentWaits(poolId: string): number[];
  close(): void;
}

export function createClaimHistory(deps: { store: HiveStore; onWait?: (poolId: string, seconds: number) => void }): ClaimHistory {
  const waits = new Map<string, number[]>();
  const seen = new Set<string>();

  const learn = (hub: string, claim: ClusterClaim, live: boolean) => {
    const uid = claim.metadata.uid ?? `${hub}/${claim.metadata.namespace}/${claim.metadata.name}`;
    if (seen.has(uid)) return;
    const ms = claimWaitMs(claim);
    if (ms === undefined) return;
    seen.add(uid);
    const poolId = `${hub}/${claim.metadata.namespace}/${claim.spec.clusterPoolName}`;
    const list = waits.get(poolId) ?? [];
    list.push(ms);
    if (list.length > KEEP) list.shift();
    waits.set(poolId, list);
    if (live) deps.onWait?.(poolId, ms / 1000);
  };

  const unsubscribe = deps.store.onChange<ClusterClaim>('ClusterClaim', (hub, type, claim) => {
    if (type === 'DELETED') seen.delete(claim.metadata.uid ?? '');
    else learn(hub, claim, true);
  });
  for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) learn(hub, object, false);

  return {
    recentWaits: (poolId) => [...(waits.get(poolId) ?? [])],
    close: unsubscribe,
  };
}
