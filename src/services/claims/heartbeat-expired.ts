// The job behind a heartbeat timeout: re-read the claim and its Lease (a heartbeat may have landed since the
// scheduler noticed), and release the claim only if the deadline really passed.
import { parseDuration } from '../../hive/claims/duration.js';
import { leaseExpiresAt } from '../../hive/claims/heartbeat.js';
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Clock, HiveStore, JobHandler } from '../ports.js';
import type { ClaimRef } from './claim-view.js';
import { readLease } from './heartbeat-lease.js';

export const HEARTBEAT_EXPIRED_JOB = 'claim.heartbeat-expired';

export function heartbeatExpiredHandler(deps: { store: HiveStore; clock: Clock; release(ref: ClaimRef, why: string): Promise<unknown> }): JobHandler {
  return async (payload, ctx) => {
    const ref = { hub: String(payload.hub), namespace: String(payload.namespace), name: String(payload.name) };
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    if (!claim || claim.metadata.deletionTimestamp) return { released: false, message: 'the claim is already gone or released' };
    const timeoutMs = parseDuration(claim.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION] ?? '');
    if (!timeoutMs) return { released: false, message: 'the claim no longer has a heartbeat timeout' };
    const lease = await readLease(deps.store, ref);
    const deadline = (lease && leaseExpiresAt(lease)) ?? Date.parse(claim.metadata.creationTimestamp ?? '') + timeoutMs;
    if (deps.clock.now() < deadline) return { released: false, message: `a heartbeat arrived; the claim now expires at ${new Date(deadline).toISOString()}` };
    await ctx.step('HeartbeatTimeout', String(payload.why ?? 'no heartbeat within the timeout'));
    await deps.release(ref, String(payload.why ?? 'heartbeat timeout'));
    return { released: true };
  };
}
