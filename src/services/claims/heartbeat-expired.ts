// The job behind a heartbeat timeout: re-read the claim and its Lease (a heartbeat may have landed since the
// scheduler noticed), and release the claim only if the deadline really passed.
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Clock, HiveStore, JobHandler, NamespacedRef } from '../ports.js';
import { deterministicId } from '../schedules/job-ids.js';
import { heartbeatDeadline } from './heartbeat-lease.js';

export const HEARTBEAT_EXPIRED_JOB = 'claim.heartbeat-expired';

/** One job per claim and deadline: every scheduler replica (and the resync) reporting the same expiry adds one job. */
export function heartbeatExpiredJob(ref: NamespacedRef, deadlineMs: number, why: string) {
  return {
    type: HEARTBEAT_EXPIRED_JOB,
    payload: { ...ref, why },
    jobId: deterministicId('claim-heartbeat', ref.hub, ref.namespace, ref.name, deadlineMs),
    hub: ref.hub,
    target: { kind: 'ClusterClaim' as const, ...ref },
  };
}

export function heartbeatExpiredHandler(deps: { store: HiveStore; clock: Clock; release(ref: NamespacedRef, why: string): Promise<unknown> }): JobHandler {
  return async (payload, ctx) => {
    const ref = { hub: String(payload.hub), namespace: String(payload.namespace), name: String(payload.name) };
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    if (!claim || claim.metadata.deletionTimestamp) return { released: false, message: 'the claim is already gone or released' };
    const deadline = await heartbeatDeadline(deps.store, ref, claim);
    if (deadline === undefined) return { released: false, message: 'the claim no longer has a heartbeat timeout' };
    if (deps.clock.now() < deadline) return { released: false, message: `a heartbeat arrived; the claim now expires at ${new Date(deadline).toISOString()}` };
    await ctx.step('HeartbeatTimeout', String(payload.why ?? 'no heartbeat within the timeout'));
    await deps.release(ref, String(payload.why ?? 'heartbeat timeout'));
    return { released: true };
  };
}
