// POST /v1/claims/{id}/heartbeat: renew the claim's Lease. The deadline is the Lease's renewTime +
// leaseDurationSeconds, read by the reaper on whatever replica holds it.
import { leaseExpiresAt, microTime, type Lease } from '../../hive/claims/heartbeat.js';
import { parseDuration } from '../../hive/claims/duration.js';
import { Conflict } from '../../hive/errors.js';
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClaimDeps } from './claim-create.js';
import { loadClaim } from './claim-view.js';
import { heartbeatLease, leaseRef, readLease } from './heartbeat-lease.js';
import type { NamespacedRef } from '../ports.js';
import { refId } from '../../hive/object-ref.js';

export interface HeartbeatResult {
  claim: string;
  renewedAt: string;
  expiresAt: string;
  timeoutSeconds: number;
}

export async function heartbeat(deps: ClaimDeps, ref: NamespacedRef, holder?: string): Promise<HeartbeatResult> {
  const claim = await loadClaim(deps.store, ref);
  if (claim.metadata.deletionTimestamp) throw new Conflict(`claim ${refId(ref)} is already released`);
  const timeout = claim.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION];
  const timeoutMs = timeout ? parseDuration(timeout) : undefined;
  if (!timeoutMs)
    throw new Conflict(`claim ${refId(ref)} was created without a heartbeatTimeout; it needs no heartbeat`);
  const now = deps.clock.now();
  const existing = await readLease(deps.store, ref);
  let lease: Lease;
  if (existing) {
    lease = await deps.store.mergePatch<Lease>('Lease', leaseRef(ref), {
      spec: { renewTime: microTime(now), ...(holder ? { holderIdentity: holder } : {}) },
    });
  } else {
    // Someone deleted the Lease: a heartbeat proves the holder is alive, so start a fresh one.
    lease = await deps.store.create<Lease>(
      'Lease',
      ref.hub,
      heartbeatLease(claim, timeoutMs / 1000, holder ?? 'beekeeper', now),
    );
  }
  return {
    claim: refId(ref),
    renewedAt: new Date(now).toISOString(),
    expiresAt: new Date(leaseExpiresAt(lease) ?? now + timeoutMs).toISOString(),
    timeoutSeconds: timeoutMs / 1000,
  };
}
