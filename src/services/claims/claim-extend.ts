// PATCH /v1/claims/{id}: extend the lifetime. Hive accepts any edit of spec.lifetime and silently caps it at the
// pool maximum (REFERENCE.md §5); Beekeeper refuses beyond the cap with the reason. An extension is recorded as
// every expiry change is (services/expiry/expiry-record.ts): who (`by`, default the API token's holder), from what
// lifetime to what, why, and the route, in the claim's lifetime-history annotation, an audit line and an Event.
import { formatDuration, parseDuration } from '../../hive/claims/duration.js';
import { extendedLifetime, type ExtensionRequest } from '../../hive/claims/lifetime.js';
import { Conflict, Invalid, NotFound } from '../../hive/errors.js';
import { appendHistory, type ExpiryHistoryEntry } from '../../hive/expiry/history.js';
import { LIFETIME_HISTORY_ANNOTATION } from '../../hive/pools/labels.js';
import { findCondition } from '../../hive/types.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import {
  announceExpiryChange,
  expiryEntry,
  requestActor,
  type AuditOrigin,
  type ExpiryActor,
} from '../expiry/expiry-record.js';
import { cachedPool } from '../pools/pool-lookup.js';
import { audit } from './audit.js';
import type { ClaimDeps } from './claim-create.js';
import { claimLimits } from './claim-limits.js';
import { buildClaimView, type ClaimView } from './claim-view.js';
import type { NamespacedRef } from '../ports.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { refId } from '../../hive/object-ref.js';

export type ClaimExtension = ExtensionRequest & { by?: string; reason?: string };

export async function extendClaim(
  deps: ClaimDeps,
  ref: NamespacedRef,
  req: ClaimExtension,
  origin: AuditOrigin,
): Promise<ClaimView> {
  const actor = requestActor(origin, req);
  // Hive writes the claim's status often; a conflict on our conditional write only means: read again and re-check.
  const { patched, entry } = await retryOnConflict(() => extendOnce(deps, ref, req, actor));
  await announceExpiryChange(deps, 'ClusterClaim', ref, entry);
  return buildClaimView(deps, ref.hub, patched);
}

/** The claim as extended, and its history entry; a WriteConflict when the claim changed since it was read. */
async function extendOnce(
  deps: ClaimDeps,
  ref: NamespacedRef,
  req: ExtensionRequest,
  actor: ExpiryActor,
): Promise<{ patched: ClusterClaim; entry: ExpiryHistoryEntry }> {
  const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
  if (!claim) throw new NotFound(`claim ${refId(ref)} not found`);
  if (claim.metadata.deletionTimestamp) throw new Conflict(`claim ${refId(ref)} is already released`);
  const poolRef = { hub: ref.hub, namespace: ref.namespace, name: claim.spec.clusterPoolName };
  const limits = claimLimits(deps, poolRef, cachedPool(deps.store, poolRef));
  const current = claim.spec.lifetime ?? claim.status?.lifetime;
  const currentMs = (current ? parseDuration(current) : undefined) ?? limits.defaultMs;
  const pending = findCondition(claim, 'Pending');
  const claimedAt =
    pending?.status === 'False' && pending.lastTransitionTime ? Date.parse(pending.lastTransitionTime) : undefined;
  const elapsed = claimedAt !== undefined ? deps.clock.now() - claimedAt : undefined;

  let next: string;
  try {
    next = extendedLifetime(req, currentMs, elapsed, limits);
  } catch (err) {
    if (err instanceof Invalid) {
      const reason = err.fields[0]?.reason ?? err.message;
      await deps.store.recordEvent('ClusterClaim', ref, {
        type: 'Warning',
        reason: 'LifetimeExtensionRefused',
        action: 'Extend',
        message: `extension refused for ${actor.by}: ${reason}`,
      });
      audit(deps.log, {
        action: 'extend',
        claim: refId(ref),
        actor: actor.by,
        outcome: 'refused',
        requested: req,
        reason,
      });
    }
    throw err;
  }

  // The team's maxLifetimeHours caps the new total lifetime, counted from the claim as Hive counts it.
  deps.quotas?.admitClaimLifetime(ref.hub, claim, parseDuration(next)!);
  const entry = expiryEntry(deps.clock.now(), actor, 'extend', current ?? formatDuration(currentMs), next);
  // Conditional on the version read, so two extensions at once cannot both pass the cap (409, retry reads again).
  const patched = await deps.store.mergePatch<ClusterClaim>(
    'ClusterClaim',
    ref,
    {
      metadata: {
        annotations: {
          [LIFETIME_HISTORY_ANNOTATION]: appendHistory(claim.metadata.annotations, entry, LIFETIME_HISTORY_ANNOTATION),
        },
      },
      spec: { lifetime: next },
    },
    { resourceVersion: claim.metadata.resourceVersion },
  );
  return { patched, entry };
}
