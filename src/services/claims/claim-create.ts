// POST /v1/claims: pick the pool (named, or by attributes across hubs), cap the lifetime, write Hive's
// ClusterClaim and, with a heartbeat timeout, its Lease. Nothing is left half-written when a step fails.
import { heartbeatTimeoutSeconds } from '../../hive/claims/heartbeat.js';
import { claimLifetime } from '../../hive/claims/lifetime.js';
import { formatDuration, parseDuration } from '../../hive/claims/duration.js';
import type { QuotaGuard } from '../quotas/quota-guard.js';
import { BEEKEEPER, BEEKEEPER_LABELS, HIVE_API_VERSION } from '../../hive/constants.js';
import { Conflict, Invalid } from '../../hive/errors.js';
import { isPoolChoice, pickPool } from '../../hive/pools/pick-pool.js';
import {
  HEARTBEAT_TIMEOUT_ANNOTATION,
  LIFETIME_HISTORY_ANNOTATION,
  PICKED_BECAUSE_ANNOTATION,
  REQUESTED_BY_ANNOTATION,
} from '../../hive/pools/labels.js';
import type { ClusterClaim, ClusterPool } from '../../hive/pools/types.js';
import type { Clock, HiveStore, NamespacedRef } from '../ports.js';
import { imageSetOf, poolQueue, requirePool, resolvePool } from '../pools/pool-lookup.js';
import { expiryEntry } from '../expiry/expiry-record.js';
import { markAnnotations, type IdempotencyMark } from '../idempotency/mark.js';
import { audit, type AuditLog } from './audit.js';
import { claimLimits, type LimitDeps } from './claim-limits.js';
import {
  checkClaimRequest,
  hiveSubjects,
  uniqueSubjects,
  type ClaimRequest,
  type SubjectRequest,
} from './claim-request.js';
import { buildClaimView, claimRefOf, type ClaimView } from './claim-view.js';
import { heartbeatLease } from './heartbeat-lease.js';
import { refId } from '../../hive/object-ref.js';

/** Who claims, as authorization sees it (src/auth/claim-access.ts); absent: anyone may claim from any pool. */
export interface ClaimAccess {
  /** Pools the caller may see: any other is as absent as one that does not exist. */
  sees(pool: NamespacedRef): boolean;
  /** Why the caller may not claim from a pool it sees (a Forbidden error), or undefined when it may. */
  refusal(pool: NamespacedRef): Error | undefined;
  /** Subjects Hive binds to the claimed cluster's namespace for the caller (REFERENCE.md §5), beside the request's. */
  subjects(pool: NamespacedRef): SubjectRequest[];
}

export interface ClaimDeps extends LimitDeps {
  store: HiveStore;
  clock: Clock;
  log: AuditLog;
  /** Team quotas (src/services/quotas); without it nothing is limited. */
  quotas?: QuotaGuard;
}

function choosePool(
  deps: ClaimDeps,
  req: ClaimRequest,
  access?: ClaimAccess,
): { ref: NamespacedRef; because?: string } {
  if (req.pool !== undefined) {
    const ref = resolvePool(deps.store, req.pool, 'pool', access && ((p) => access.sees(p)));
    const refused = access?.refusal(ref);
    if (refused) throw refused;
    return { ref };
  }
  const mayClaim = (ref: NamespacedRef) => !access || (access.sees(ref) && !access.refusal(ref));
  const pools = deps.store
    .cachedList<ClusterPool>('ClusterPool')
    .filter(({ hub, object }) => mayClaim({ hub, namespace: object.metadata.namespace!, name: object.metadata.name }));
  const candidates = pools.map(({ hub, object }) => {
    const ref = { hub, namespace: object.metadata.namespace!, name: object.metadata.name };
    return {
      hub,
      pool: object,
      imageSet: imageSetOf(deps.store, hub, object),
      queuedClaims: poolQueue(deps.store, ref).length,
    };
  });
  const choice = pickPool(candidates, req.selector ?? {});
  if (!isPoolChoice(choice)) {
    const detail = choice.considered.map((c) => `${c.id}: ${c.verdict}`).join('; ');
    throw new Invalid(`selector: ${choice.reason}`, [
      { field: 'selector', reason: detail ? `${choice.reason} (${detail})` : choice.reason },
    ]);
  }
  return {
    ref: { hub: choice.hub, namespace: choice.pool.metadata.namespace!, name: choice.pool.metadata.name },
    because: choice.reason,
  };
}

export async function createClaim(
  deps: ClaimDeps,
  req: ClaimRequest,
  actor?: string,
  mark?: IdempotencyMark,
  access?: ClaimAccess,
): Promise<ClaimView> {
  checkClaimRequest(req);
  // The request's own subjects are checked first, each refusal naming its field (subjects[i]).
  hiveSubjects(req.subjects);
  const timeoutSeconds = req.heartbeatTimeout !== undefined ? heartbeatTimeoutSeconds(req.heartbeatTimeout) : undefined;
  const { ref, because } = choosePool(deps, req, access);
  const subjects = uniqueSubjects(hiveSubjects([...(req.subjects ?? []), ...(access?.subjects(ref) ?? [])]));
  const pool = requirePool(deps.store, ref);
  if (pool.metadata.deletionTimestamp)
    throw new Conflict(`pool ${refId(ref)} is being deleted and fills no new claims`);
  const limits = claimLimits(deps, ref, pool);
  // A team quota's maxLifetimeHours shortens the default; a longer lifetime asked for is refused below.
  const quotaMs = deps.quotas?.claimMaxLifetimeMs(ref.hub, ref);
  const lifetime = claimLifetime(
    req.lifetime,
    quotaMs === undefined ? limits : { ...limits, defaultMs: Math.min(limits.defaultMs, quotaMs) },
  );
  deps.quotas?.admitClaim(ref.hub, ref, parseDuration(lifetime)!);

  const annotations: Record<string, string> = {
    // The lifetime's first history entry, in the shape of every expiry change (services/expiry/expiry-record.ts).
    [LIFETIME_HISTORY_ANNOTATION]: JSON.stringify([
      expiryEntry(deps.clock.now(), { by: actor ?? 'anonymous', via: 'POST /v1/claims' }, 'set', undefined, lifetime),
    ]),
  };
  if (because) annotations[PICKED_BECAUSE_ANNOTATION] = because;
  if (actor) annotations[REQUESTED_BY_ANNOTATION] = actor;
  if (timeoutSeconds !== undefined) annotations[HEARTBEAT_TIMEOUT_ANNOTATION] = formatDuration(timeoutSeconds * 1000);
  Object.assign(annotations, markAnnotations(mark));

  // A claim must live in its pool's namespace (REFERENCE.md §5). Without a name the API server generates one
  // (`generateName`), and Kubernetes treats an empty name as absent.
  const claim: ClusterClaim = {
    apiVersion: HIVE_API_VERSION,
    kind: 'ClusterClaim',
    metadata: {
      name: req.name ?? '',
      ...(req.name ? {} : { generateName: `${ref.name.slice(0, 57)}-` }),
      namespace: ref.namespace,
      labels: { [BEEKEEPER_LABELS.managedBy]: BEEKEEPER },
      annotations,
    },
    spec: { clusterPoolName: ref.name, lifetime, ...(subjects.length ? { subjects } : {}) },
  };
  const created = await deps.store.create<ClusterClaim>('ClusterClaim', ref.hub, claim);
  const createdRef = claimRefOf(ref.hub, created);

  if (timeoutSeconds !== undefined) {
    try {
      await deps.store.create(
        'Lease',
        ref.hub,
        heartbeatLease(created, timeoutSeconds, actor ?? 'beekeeper', deps.clock.now()),
      );
    } catch (err) {
      // Without its Lease the claim could outlive a crashed holder: take the claim back before reporting.
      await deps.store.delete('ClusterClaim', createdRef, { uid: created.metadata.uid }).catch(() => undefined);
      throw err;
    }
  }
  const words =
    `claimed from pool ${refId(ref)} with lifetime ` +
    `${lifetime}${timeoutSeconds ? `, heartbeat timeout ${formatDuration(timeoutSeconds * 1000)}` : ''}`;
  await deps.store.recordEvent('ClusterClaim', createdRef, {
    type: 'Normal',
    reason: 'ClaimCreated',
    action: 'Claim',
    message: because ? `${words}; ${because}` : words,
  });
  audit(deps.log, {
    action: 'create',
    claim: refId(createdRef),
    actor,
    outcome: 'done',
    pool: refId(ref),
    lifetime,
    because,
  });
  // Hive may have assigned the claim by now, and the cache seen it: answer from the cache, which the pool's clusters
  // in the view are read from too, so the answer tells one story.
  const seen = deps.store.cached<ClusterClaim>('ClusterClaim', createdRef);
  return buildClaimView(deps, ref.hub, seen && seen.metadata.uid === created.metadata.uid ? seen : created);
}
