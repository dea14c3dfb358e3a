// DELETE /v1/claims/{id}: the claim is released at once from the caller's point of view; Hive then marks the
// cluster `remove-cluster-from-pool`, deprovisions it and only then drops the claim's finalizer (REFERENCE.md §5),
// which a `claim.release` job follows to the end.
import { Conflict, NotFound } from '../../hive/errors.js';
import { claimClusterRelocating } from './claim-relocating.js';
import type { ClusterClaim, ClusterDeployment } from '../../hive/pools/types.js';
import { Type as T } from 'typebox';
import { defineJob, handleJob, jobOf, refFields, type JobRegistration } from '../job-definition.js';
import type { HiveStore, JobView, NamespacedRef } from '../ports.js';
import type { Operations } from '../operations/operations.js';
import { targetOf, type Requester } from '../operations/operation.js';
import { audit } from './audit.js';
import type { ClaimDeps } from './claim-create.js';
import { buildClaimView, type ClaimView } from './claim-view.js';
import { refId } from '../../hive/object-ref.js';

export const CLAIM_RELEASE_JOB = defineJob({
  type: 'claim.release',
  payload: T.Object({ ...refFields(), uid: T.Optional(T.String()) }),
  class: 'interactive',
});
/** Deprovisioning a real cluster takes tens of minutes; the job gives up waiting (and can be retried) after this. */
const RELEASE_WAIT_MS = 3 * 3600_000;

/**
 * Intent first (issue 9): the claim is deleted before the answer, under an Operation whose job follows Hive's
 * deprovision; a release already in progress for this claim is the answer to another.
 */
export async function releaseClaim(
  deps: ClaimDeps & { operations: Operations },
  ref: NamespacedRef,
  opts: { actor?: string; why?: string; requester?: Requester } = {},
): Promise<{ claim: ClaimView; job: JobView }> {
  const claim =
    deps.store.cached<ClusterClaim>('ClusterClaim', ref) ?? (await deps.store.get<ClusterClaim>('ClusterClaim', ref));
  if (!claim) throw new NotFound(`claim ${refId(ref)} not found`);
  const relocating = claim.metadata.deletionTimestamp ? undefined : claimClusterRelocating(deps.store, ref.hub, claim);
  if (relocating) throw new Conflict(`claim ${refId(ref)} cannot be released now: ${relocating}`);
  const why = opts.why ?? `released${opts.actor ? ` by ${opts.actor}` : ''}`;
  const uid = claim.metadata.uid;
  const job = await deps.operations.accept({
    ...jobOf(CLAIM_RELEASE_JOB, { hub: ref.hub, namespace: ref.namespace, name: ref.name, ...(uid ? { uid } : {}) }),
    target: targetOf('ClusterClaim', ref, uid),
    requester: { by: opts.actor ?? 'anonymous', ...opts.requester },
    against: (other) => (other.spec.type === CLAIM_RELEASE_JOB.type ? 'join' : undefined),
    write: async () => {
      if (claim.metadata.deletionTimestamp) return;
      await deps.store
        .delete('ClusterClaim', ref, { ...(uid ? { uid } : {}), propagation: 'Background' })
        .catch((err: unknown) => {
          if (!(err instanceof NotFound)) throw err;
        });
      await deps.store.recordEvent('ClusterClaim', ref, {
        type: 'Normal',
        reason: 'ClaimReleased',
        action: 'Release',
        message: `${why}; Hive deprovisions the cluster`,
      });
      audit(deps.log, {
        action: 'release',
        claim: refId(ref),
        actor: opts.actor,
        outcome: 'done',
        why,
        cluster: claim.spec.namespace,
      });
    },
  });
  const released = claim.metadata.deletionTimestamp
    ? claim
    : { ...claim, metadata: { ...claim.metadata, deletionTimestamp: new Date(deps.clock.now()).toISOString() } };
  return { claim: buildClaimView(deps, ref.hub, released), job };
}

/** Follows a released claim until Hive has deprovisioned its cluster and removed the claim. */
export function claimReleaseJob(deps: { store: HiveStore }): JobRegistration {
  return handleJob(CLAIM_RELEASE_JOB, async (payload, ctx) => {
    const ref = { hub: payload.hub, namespace: payload.namespace, name: payload.name };
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    // A claim made since under the same name is someone else's.
    if (!claim || (payload.uid && claim.metadata.uid !== payload.uid))
      return { released: true, message: 'the claim is gone' };
    // Converge: the job of a request that stopped before its delete still deletes.
    if (!claim.metadata.deletionTimestamp)
      await deps.store.delete('ClusterClaim', ref, { uid: claim.metadata.uid, propagation: 'Background' });
    const cluster = claim.spec.namespace;
    await ctx.step('Released', cluster ? `Hive is deprovisioning cluster ${cluster}` : 'the claim had no cluster yet');
    let last = '';
    const unsubscribe = deps.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, type, cd) => {
      if (hub !== ref.hub || cd.metadata.namespace !== cluster) return;
      const step = type === 'DELETED' ? 'ClusterDeleted' : cd.metadata.deletionTimestamp ? 'Deprovisioning' : '';
      if (step && step !== last) {
        last = step;
        void ctx.step(
          step,
          step === 'ClusterDeleted' ? `cluster ${cluster} deleted` : `cluster ${cluster} is being deprovisioned`,
        );
      }
    });
    try {
      await deps.store.waitFor<ClusterClaim, true>('ClusterClaim', ref, (c) => (c ? undefined : true), {
        timeoutMs: RELEASE_WAIT_MS,
        signal: ctx.signal,
      });
    } finally {
      unsubscribe();
    }
    return { released: true, cluster };
  });
}
