// Heartbeat state lives in a coordination.k8s.io/v1 Lease named like the claim, in the claim's namespace, owned by
// the claim (so Kubernetes garbage-collects it with the claim and it survives any loss of Redis).
import { invalid } from '../errors.js';
import { parseDuration } from './duration.js';

export type Lease = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }>;
  };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string };
};

/** The smallest timeout worth having: a CI heartbeat every few seconds would be noise on the hub. */
export const MIN_HEARTBEAT_TIMEOUT_MS = 60_000;

/** Seconds of a heartbeat timeout request, or Invalid. */
export function heartbeatTimeoutSeconds(text: string, field = 'heartbeatTimeout'): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw invalid(field, `"${text}" is not a duration such as 5m or 300s`);
  if (ms < MIN_HEARTBEAT_TIMEOUT_MS) throw invalid(field, 'must be at least 1m');
  return Math.round(ms / 1000);
}

/** Kubernetes MicroTime: RFC 3339 with exactly six fractional digits, e.g. `2026-11-21T13:54:24.000000Z`. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** When the holder's last heartbeat runs out: renewTime (or acquireTime) + leaseDurationSeconds. */
export function leaseExpiresAt(lease: Lease): number | undefined {
  const since = lease.spec.renewTime ?? lease.spec.acquireTime;
  if (!since || !lease.spec.leaseDurationSeconds) return undefined;
  return Date.parse(since) + lease.spec.leaseDurationSeconds * 1000;
}
