// Things that expire: ClusterDeployments with Hive's delete-after (counted from creationTimestamp, REFERENCE.md
// §2.6) and ClusterClaims with a lifetime (counted from the Pending=False transition, REFERENCE.md §5).
import { ANNOTATIONS } from '../../hive/constants.js';
import { expiresAt } from '../../hive/delete-after.js';
import { parseGoDuration } from '../../hive/duration.js';
import { EXPIRY_HISTORY_ANNOTATION, readHistory } from '../../hive/expiry/history.js';
import { LIFETIME_HISTORY_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment } from '../../hive/types.js';

export type ExpiringKind = 'ClusterDeployment' | 'ClusterClaim';

export interface Expiring {
  kind: ExpiringKind;
  hub: string;
  namespace: string;
  name: string;
  expiresAtMs: number;
  /**
   * When the current expiry was set: the last recorded change, if it is the one in force; else when the cluster
   * was created, or the claim claimed. Warnings whose lead time is longer than what was left then are moot.
   */
  setAtMs: number;
  /** The cluster concerned (for a claim: its assigned ClusterDeployment). */
  cluster: { hub: string; namespace: string; name: string };
  annotations?: Record<string, string>;
}

/** When the history's last entry set `current` (a change Beekeeper did not record makes it unknown). */
function lastSetAt(
  annotations: Record<string, string> | undefined,
  key: string,
  isCurrent: (to: string) => boolean,
): number | undefined {
  const last = readHistory(annotations, key).at(-1);
  const at = last?.to !== undefined && isCurrent(last.to) ? Date.parse(last.at) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

export function clusterExpiry(hub: string, cd: ClusterDeployment): Expiring | undefined {
  if (cd.metadata.deletionTimestamp) return undefined;
  const at = expiresAt(cd.metadata.creationTimestamp ?? '', cd.metadata.annotations?.[ANNOTATIONS.deleteAfter]);
  if (!at) return undefined;
  const namespace = cd.metadata.namespace ?? '';
  const expiresAtMs = at.getTime();
  // Entries written before the expiry was recorded as Hive applies it (whole seconds) may be a second off.
  const setAtMs =
    lastSetAt(
      cd.metadata.annotations,
      EXPIRY_HISTORY_ANNOTATION,
      (to) => Math.abs(Date.parse(to) - expiresAtMs) < 1000,
    ) ?? Date.parse(cd.metadata.creationTimestamp ?? '');
  return {
    kind: 'ClusterDeployment',
    hub,
    namespace,
    name: cd.metadata.name,
    expiresAtMs,
    setAtMs,
    cluster: { hub, namespace, name: cd.metadata.name },
    annotations: cd.metadata.annotations,
  };
}

export function claimExpiry(hub: string, claim: ClusterClaim): Expiring | undefined {
  if (claim.metadata.deletionTimestamp) return undefined;
  const lifetime = claim.status?.lifetime ? parseGoDuration(claim.status.lifetime) : undefined;
  const pending = claim.status?.conditions?.find((c) => c.type === 'Pending');
  // Hive starts the clock when the claim is claimed (Pending=False), not when the cluster runs.
  if (lifetime === undefined || pending?.status !== 'False' || !pending.lastTransitionTime || !claim.spec?.namespace)
    return undefined;
  const start = Date.parse(pending.lastTransitionTime);
  if (Number.isNaN(start)) return undefined;
  const namespace = claim.metadata.namespace ?? '';
  return {
    kind: 'ClusterClaim',
    hub,
    namespace,
    name: claim.metadata.name,
    expiresAtMs: start + lifetime,
    // The lifetime runs from the claim; an extension after that sets a new end then.
    setAtMs: Math.max(
      start,
      lastSetAt(claim.metadata.annotations, LIFETIME_HISTORY_ANNOTATION, (to) => parseGoDuration(to) === lifetime) ??
        start,
    ),
    cluster: { hub, namespace: claim.spec.namespace, name: claim.spec.namespace },
    annotations: claim.metadata.annotations,
  };
}
