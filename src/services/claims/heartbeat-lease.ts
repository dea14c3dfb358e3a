// The heartbeat Lease of a claim (coordination.k8s.io/v1): renewTime + leaseDurationSeconds is the deadline. It
// is owned by the claim, so Kubernetes garbage-collects it with the claim; it lives on the claim's hub, so the
// deadline survives Beekeeper restarts and any loss of Redis.
import { BEEKEEPER, BEEKEEPER_LABELS, HIVE_API_VERSION } from '../../hive/constants.js';
import { parseDuration } from '../../hive/claims/duration.js';
import { leaseExpiresAt, microTime, type Lease } from '../../hive/claims/heartbeat.js';
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { HiveStore, NamespacedRef } from '../ports.js';

export const leaseName = (claimName: string) => `beekeeper-claim-${claimName}`;
export const leaseRef = (ref: NamespacedRef) => ({ hub: ref.hub, namespace: ref.namespace, name: leaseName(ref.name) });

export function heartbeatLease(claim: ClusterClaim, timeoutSeconds: number, holder: string, nowMs: number): Lease {
  const now = microTime(nowMs);
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: leaseName(claim.metadata.name),
      namespace: claim.metadata.namespace,
      labels: { [BEEKEEPER_LABELS.managedBy]: BEEKEEPER, 'beekeeper.io/claim': claim.metadata.name },
      ownerReferences: [
        { apiVersion: HIVE_API_VERSION, kind: 'ClusterClaim', name: claim.metadata.name, uid: claim.metadata.uid! },
      ],
    },
    spec: { holderIdentity: holder, leaseDurationSeconds: timeoutSeconds, acquireTime: now, renewTime: now },
  };
}

export async function readLease(store: HiveStore, ref: NamespacedRef): Promise<Lease | undefined> {
  return store.get<Lease>('Lease', leaseRef(ref));
}

/**
 * When the claim's holder stops counting as alive: its last heartbeat plus the timeout, read live from the Lease; a
 * missing Lease means no heartbeat was ever recorded, so the timeout counts from the claim's creation. Undefined
 * when the claim has no (valid) heartbeat timeout.
 */
export async function heartbeatDeadline(
  store: HiveStore,
  ref: NamespacedRef,
  claim: ClusterClaim,
): Promise<number | undefined> {
  const timeoutMs = parseDuration(claim.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION] ?? '');
  if (!timeoutMs) return undefined;
  const lease = await readLease(store, ref);
  return (lease && leaseExpiresAt(lease)) ?? Date.parse(claim.metadata.creationTimestamp ?? '') + timeoutMs;
}
