// The job behind a heartbeat timeout: re-read the claim and its Lease (a heartbeat may have landed since the
// scheduler noticed), and release the claim only if the deadline really passed.
import type { ClusterClaim } from '../../hive/pools/types.js';
import { Type as T } from 'typebox';
import {
  BACKGROUND_PRIORITY,
  defineJob,
  handleJob,
  jobOf,
  refFields,
  type JobRegistration,
} from '../job-definition.js';
import type { Clock, HiveStore, NamespacedRef } from '../ports.js';
import { jobIds } from '../job-ids.js';
import { heartbeatDeadline } from './heartbeat-lease.js';
import { claimClusterRelocating } from './claim-relocating.js';
import { Unavailable } from '../../hive/errors.js';

// A claim whose heartbeat lapsed holds a cluster nobody uses: give it back before anything slower.
export const HEARTBEAT_EXPIRED_JOB = defineJob({
  type: 'claim.heartbeat-expired',
  payload: T.Object({ ...refFields(), why: T.Optional(T.String()) }),
  class: 'background',
  priority: BACKGROUND_PRIORITY.edges,
});

/** One job per claim and deadline: every scheduler replica (and the resync) reporting the same expiry adds one job. */
export function heartbeatExpiredJob(ref: NamespacedRef, deadlineMs: number, why: string) {
  return {
    ...jobOf(HEARTBEAT_EXPIRED_JOB, { ...ref, why }),
    jobId: jobIds.heartbeatExpired(ref, deadlineMs),
    hub: ref.hub,
    target: { kind: 'ClusterClaim' as const, ...ref },
  };
}

export function heartbeatExpiredHandler(deps: {
  store: HiveStore;
  clock: Clock;
  release(ref: NamespacedRef, why: string): Promise<unknown>;
}): JobRegistration {
  return handleJob(HEARTBEAT_EXPIRED_JOB, async (payload, ctx) => {
    const ref = { hub: payload.hub, namespace: payload.namespace, name: payload.name };
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    if (!claim || claim.metadata.deletionTimestamp)
      return { released: false, message: 'the claim is already gone or released' };
    const deadline = await heartbeatDeadline(deps.store, ref, claim);
    if (deadline === undefined) return { released: false, message: 'the claim no longer has a heartbeat timeout' };
    if (deps.clock.now() < deadline)
      return {
        released: false,
        message: `a heartbeat arrived; the claim now expires at ${new Date(deadline).toISOString()}`,
      };
    const relocating = claimClusterRelocating(deps.store, ref.hub, claim);
    // Retried until the move ends: then the claim is released as it would have been.
    if (relocating) throw new Unavailable(`release held back (Relocating): ${relocating}`);
    await ctx.step('HeartbeatTimeout', String(payload.why ?? 'no heartbeat within the timeout'));
    await deps.release(ref, String(payload.why ?? 'heartbeat timeout'));
    return { released: true };
  });
}
