// DELETE /v1/claims/{id}: the claim is released at once from the caller's point of view; Hive then marks the
// cluster `remove-cluster-from-pool`, deprovisions it and only then drops the claim's finalizer (REFERENCE.md §5),
// which a `claim.release` job follows to the end.
import { NotFound } from '../../hive/errors.js';
import type { ClusterClaim, ClusterDeployment } from '../../hive/pools/types.js';
import type { HiveStore, JobHandler, JobQueue, JobView } from '../ports.js';
import { audit } from './audit.js';
import type { ClaimDeps } from './claim-create.js';
import { buildClaimView, claimId, type ClaimRef, type ClaimView } from './claim-view.js';
import { deterministicId } from '../schedules/job-ids.js';

export const CLAIM_RELEASE_JOB = 'claim.release';
/** Deprovisioning a real cluster takes tens of minutes; the job gives up waiting (and can be retried) after this. */
const RELEASE_WAIT_MS = 3 * 3600_000;

export async function releaseClaim(
  deps: ClaimDeps & { queue: JobQueue },
  ref: ClaimRef,
  opts: { actor?: string; why?: string } = {},
): Promise<{ claim: ClaimView; job: JobView }> {
  const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref) ?? (await deps.store.get<ClusterClaim>('ClusterClaim', ref));
  if (!claim) throw new NotFound(`claim ${claimId(ref)} not found`);
  const why = opts.why ?? `released${opts.actor ? ` by ${opts.actor}` : ''}`;
  let released = claim;
  if (!claim.metadata.deletionTimestamp) {
    await deps.store.delete('ClusterClaim', ref, { uid: claim.metadata.uid, propagation: 'Background' });
    released = { ...claim, metadata: { ...claim.metadata, deletionTimestamp: new Date(deps.clock.now()).toISOString() } };
    await deps.store.recordEvent('ClusterClaim', ref, { type: 'Normal', reason: 'ClaimReleased', action: 'Release', message: `${why}; Hive deprovisions the cluster` });
    audit(deps.log, { action: 'release', claim: claimId(ref), actor: opts.actor, outcome: 'done', why, cluster: claim.spec.namespace });
  }
  const job = await deps.queue.enqueue(
    CLAIM_RELEASE_JOB,
    { hub: ref.hub, namespace: ref.namespace, name: ref.name },
    { target: { kind: 'ClusterClaim', ...ref }, dedupId: deterministicId('claim-release', ref.hub, ref.namespace, ref.name) },
  );
  return { claim: buildClaimView(deps, ref.hub, released), job };
}

/** Follows a released claim until Hive has deprovisioned its cluster and removed the claim. */
export function claimReleaseHandler(deps: { store: HiveStore }): JobHandler {
  return async (payload, ctx) => {
    const ref = { hub: String(payload.hub), namespace: String(payload.namespace), name: String(payload.name) };
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    if (!claim) return { released: true, message: 'the claim is gone' };
    // Converge: a job replayed after a crash between delete and enqueue still deletes.
    if (!claim.metadata.deletionTimestamp) await deps.store.delete('ClusterClaim', ref, { uid: claim.metadata.uid, propagation: 'Background' });
    const cluster = claim.spec.namespace;
    await ctx.step('Released', cluster ? `Hive is deprovisioning cluster ${cluster}` : 'the claim had no cluster yet');
    let last = '';
    const unsubscribe = deps.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, type, cd) => {
      if (hub !== ref.hub || cd.metadata.namespace !== cluster) return;
      const step = type === 'DELETED' ? 'ClusterDeleted' : cd.metadata.deletionTimestamp ? 'Deprovisioning' : '';
      if (step && step !== last) {
        last = step;
        void ctx.step(step, step === 'ClusterDeleted' ? `cluster ${cluster} deleted` : `cluster ${cluster} is being deprovisioned`);
      }
    });
    try {
      await deps.store.waitFor<ClusterClaim, true>('ClusterClaim', ref, (c) => (c ? undefined : true), { timeoutMs: RELEASE_WAIT_MS, signal: ctx.signal });
    } finally {
      unsubscribe();
    }
    return { released: true, cluster };
  };
}
