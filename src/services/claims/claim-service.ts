// The claims use case: one object of async functions over the ports (ARCHITECTURE.md, plain factories).
import type { ExtensionRequest, LifetimePolicy } from '../../hive/claims/lifetime.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { JobRegistration } from '../job-definition.js';
import type { Clock, HiveStore, JobQueue, NamespacedRef } from '../ports.js';
import type { AuditOrigin } from '../expiry/expiry-record.js';
import type { IdempotencyMark } from '../idempotency/mark.js';
import type { Operations } from '../operations/operations.js';
import type { AuditLog } from './audit.js';
import type { QuotaGuard } from '../quotas/quota-guard.js';
import { claimCredentials, claimKubeconfig } from './claim-access.js';
import { FALLBACK_CLAIM_LIFETIME, policySource } from './claim-limits.js';
import { createClaim, type ClaimAccess, type ClaimDeps } from './claim-create.js';
import { extendClaim } from './claim-extend.js';
import { heartbeat } from './claim-heartbeat.js';
import { listClaims, type ClaimFilter, type ClaimPage } from './claim-list.js';
import { claimReleaseJob, releaseClaim } from './claim-release.js';
import type { ClaimRequest } from './claim-request.js';
import { buildClaimView, loadClaim, type ClaimView } from './claim-view.js';
import { waitForClaim, watchClaim } from './claim-watch.js';
import { heartbeatExpiredHandler, heartbeatExpiredJob } from './heartbeat-expired.js';
import { startHeartbeatReaper } from './heartbeat-reaper.js';
import { enqueueFixed } from '../resync/repair.js';

export interface ClaimServiceDeps {
  store: HiveStore;
  queue: JobQueue;
  clock: Clock;
  log: AuditLog;
  /** Where ExpiryPolicies live (the state hub and namespace): their caps limit claim lifetimes too. */
  stateHub?: string;
  stateNamespace?: string;
  /** Limits where no ExpiryPolicy gives one (default FALLBACK_CLAIM_LIFETIME: 4h default, 72h maximum). */
  fallbackLifetime?: LifetimePolicy;
  /** Releases are accepted as Operations (intent first). */
  operations: Operations;
  /** Team quotas (src/services/quotas): claims and their lifetimes; without it nothing is limited. */
  quotas?: QuotaGuard;
  /** Whose claims a team's ExpiryPolicy caps (services/team-scope.ts). */
  teams?: ClusterTeams;
}

export type { ClaimFilter, ClaimPage } from './claim-list.js';

import type { ClusterTeams } from '../team-scope.js';

export function createClaimService(deps: ClaimServiceDeps) {
  const claimDeps: ClaimDeps & { queue: JobQueue; operations: Operations } = {
    ...deps,
    policies: policySource(deps),
    fallback: deps.fallbackLifetime ?? FALLBACK_CLAIM_LIFETIME,
  };

  return {
    /** `mark`: the request's Idempotency-Key, recorded on the claim. */
    create: (req: ClaimRequest, actor?: string, mark?: IdempotencyMark, access?: ClaimAccess) =>
      createClaim(claimDeps, req, actor, mark, access),
    /** `visible`: only the claims the caller may see (filtered before paging). */
    list: (filter: ClaimFilter = {}, visible?: (hub: string, claim: ClusterClaim) => boolean): ClaimPage =>
      listClaims(claimDeps, filter, visible),
    get: async (ref: NamespacedRef) => buildClaimView(claimDeps, ref.hub, await loadClaim(deps.store, ref)),
    wait: (ref: NamespacedRef, seconds: number, signal?: AbortSignal) => waitForClaim(claimDeps, ref, seconds, signal),
    watch: (ref: NamespacedRef, listener: (view: ClaimView) => void, onEnd: () => void) =>
      watchClaim(claimDeps, ref, listener, onEnd),
    kubeconfig: (ref: NamespacedRef) => claimKubeconfig(claimDeps, ref),
    credentials: (ref: NamespacedRef) => claimCredentials(claimDeps, ref),
    /** `origin`: the API token's holder and the route, for the record. */
    extend: (ref: NamespacedRef, req: ExtensionRequest & { by?: string; reason?: string }, origin: AuditOrigin) =>
      extendClaim(claimDeps, ref, req, origin),
    heartbeat: (ref: NamespacedRef, holder?: string) => heartbeat(claimDeps, ref, holder),
    release: (ref: NamespacedRef, actor?: string) => releaseClaim(claimDeps, ref, { ...(actor ? { actor } : {}) }),
    /** Pending claims per pool and when the oldest was created (ms), for the claims-pending gauges. */
    pendingByPool(): Map<string, { count: number; oldestCreatedMs: number }> {
      const out = new Map<string, { count: number; oldestCreatedMs: number }>();
      for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) {
        if (object.spec.namespace || object.metadata.deletionTimestamp) continue;
        const id = `${hub}/${object.metadata.namespace}/${object.spec.clusterPoolName}`;
        const created = Date.parse(object.metadata.creationTimestamp ?? '');
        const seen = out.get(id) ?? { count: 0, oldestCreatedMs: Infinity };
        out.set(id, {
          count: seen.count + 1,
          oldestCreatedMs: Number.isNaN(created) ? seen.oldestCreatedMs : Math.min(seen.oldestCreatedMs, created),
        });
      }
      return out;
    },
  };
}

export type ClaimService = ReturnType<typeof createClaimService>;

/** Job handlers of the claims feature, for the worker's dispatch table. */
export function claimJobs(deps: ClaimServiceDeps): JobRegistration[] {
  const claimDeps = {
    ...deps,
    policies: policySource(deps),
    fallback: deps.fallbackLifetime ?? FALLBACK_CLAIM_LIFETIME,
  };
  return [
    claimReleaseJob(deps),
    heartbeatExpiredHandler({
      ...deps,
      release: (ref, why) => releaseClaim(claimDeps, ref, { actor: 'beekeeper-heartbeat', why }),
    }),
  ];
}

/**
 * The heartbeat reaper, for the scheduler role: its timers only enqueue, with a job id per claim and deadline so
 * every replica's report collapses into one job; the job re-checks the Lease before releasing.
 */
export function startClaimReaper(deps: Pick<ClaimServiceDeps, 'store' | 'clock' | 'log' | 'queue'>) {
  return startHeartbeatReaper({
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    onExpired: (ref, deadlineMs, why) => enqueueFixed(deps.queue, heartbeatExpiredJob(ref, deadlineMs, why)),
  });
}
