// Following one claim: `?wait` long polls and the SSE stream. Woken by informer events on the claim, its cluster
// and its pool (the queue and supply it reports on change with them), never by polling.
import { Unavailable } from '../../hive/errors.js';
import type { ClusterClaim, ClusterDeployment, ClusterPool } from '../../hive/pools/types.js';
import type { ClaimDeps } from './claim-create.js';
import { buildClaimView, loadClaim, requireClaim, type ClaimView } from './claim-view.js';
import type { NamespacedRef } from '../ports.js';

/** A claim is done waiting when it runs, or when it will never run (released, cluster lost). */
export const settled = (view: ClaimView) => view.phase !== 'Pending' && view.phase !== 'Starting';

export async function waitForClaim(
  deps: ClaimDeps,
  ref: NamespacedRef,
  seconds: number,
  signal?: AbortSignal,
): Promise<ClaimView> {
  const first = buildClaimView(deps, ref.hub, await loadClaim(deps.store, ref));
  if (seconds <= 0 || settled(first)) return first;
  try {
    await deps.store.waitFor<ClusterClaim, true>(
      'ClusterClaim',
      ref,
      (claim) => (!claim || settled(buildClaimView(deps, ref.hub, claim)) ? true : undefined),
      { timeoutMs: seconds * 1000, signal },
    );
  } catch (err) {
    if (!(err instanceof Unavailable)) throw err;
  }
  return buildClaimView(deps, ref.hub, requireClaim(deps.store, ref));
}

/**
 * Calls `listener` with the claim's view now and whenever it changes; `onEnd` once the claim is gone. The claim
 * must already be in the cache (read it with loadClaim first). Returns an unsubscribe function.
 */
export function watchClaim(
  deps: ClaimDeps,
  ref: NamespacedRef,
  listener: (view: ClaimView) => void,
  onEnd: () => void,
): () => void {
  let last = '';
  let poolName = requireClaim(deps.store, ref).spec.clusterPoolName;
  let clusterNs: string | undefined;
  const emit = () => {
    const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref);
    if (!claim) return void stop(true);
    clusterNs = claim.spec.namespace;
    poolName = claim.spec.clusterPoolName;
    const view = buildClaimView(deps, ref.hub, claim);
    // ETA counts down with the clock; compare without it so only real changes are sent.
    const key = JSON.stringify({ ...view, eta: view.eta?.basis });
    if (key !== last) {
      last = key;
      listener(view);
    }
  };
  const mine = (hub: string, ns?: string) => hub === ref.hub && ns === ref.namespace;
  const offs = [
    deps.store.onChange<ClusterClaim>('ClusterClaim', (hub, _type, c) => {
      if (mine(hub, c.metadata.namespace) && (c.metadata.name === ref.name || c.spec.clusterPoolName === poolName))
        emit();
    }),
    deps.store.onChange<ClusterPool>('ClusterPool', (hub, _type, p) => {
      if (mine(hub, p.metadata.namespace) && p.metadata.name === poolName) emit();
    }),
    deps.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, _type, cd) => {
      const ref2 = cd.spec.clusterPoolRef;
      if (
        hub === ref.hub &&
        (cd.metadata.namespace === clusterNs || (ref2?.poolName === poolName && ref2.namespace === ref.namespace))
      )
        emit();
    }),
  ];
  let stopped = false;
  const stop = (ended: boolean) => {
    if (stopped) return;
    stopped = true;
    for (const off of offs) off();
    if (ended) onEnd();
  };
  emit();
  return () => stop(false);
}
