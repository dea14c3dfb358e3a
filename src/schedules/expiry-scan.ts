// The expiry rules the timers apply when objects change and the resync applies every interval: the warning an
// expiring object is owed now, and whether a cluster's expiry breaks an enforced policy. One copy of each.
import { jobOf } from '../services/job-definition.js';
import { effectiveLimits, policyExpiry, type WarningPlan } from '../hive/expiry/index.js';
import { isUnclaimedPoolCluster } from '../hive/schedule/index.js';
import type { JobSpec, ServiceDeps, StateLocation } from '../services/ports.js';
import type { FixedJob } from '../services/resync/repair.js';
import {
  clusterExpiry,
  ENFORCE_POLICY_JOB,
  enforcedPolicies,
  WARN_JOB,
  type Expiring,
  type WarnPayload,
} from '../services/expiry/index.js';
import { jobIds } from '../services/job-ids.js';
import type { ClusterDeployment } from '../hive/types.js';
import { clusterTeamOf, type TeamScope } from '../services/team-scope.js';

export type ExpiryScanDeps = ServiceDeps & StateLocation & TeamScope;

/** The job delivering the warning the plan says is due (the most urgent; those it supersedes are recorded as such). */
export function warnJob(target: Expiring, plan: WarningPlan): FixedJob | undefined {
  if (!plan.due) return undefined;
  const payload: WarnPayload = {
    kind: target.kind,
    hub: target.hub,
    namespace: target.namespace,
    name: target.name,
    expiresAt: new Date(target.expiresAtMs).toISOString(),
    lead: plan.due.lead,
    superseded: plan.superseded.map((w) => w.lead),
  };
  return { ...jobOf(WARN_JOB, payload), jobId: jobIds.warn(target, plan.due.lead), hub: target.hub };
}

/** The policy enforcement a cluster needs now (its expiry is missing a default or beyond a cap), if any. */
export function policyEnforcement(
  deps: ExpiryScanDeps,
  hub: string,
  cd: ClusterDeployment,
): (JobSpec & { dedupId: string; hub: string }) | undefined {
  if (cd.metadata.deletionTimestamp || isUnclaimedPoolCluster(cd)) return undefined;
  const policies = enforcedPolicies(deps);
  if (policies.length === 0) return undefined;
  const created = Date.parse(cd.metadata.creationTimestamp ?? '');
  if (
    Number.isNaN(created) ||
    !policyExpiry(
      clusterExpiry(hub, cd)?.expiresAtMs,
      created,
      deps.clock.now(),
      effectiveLimits(policies, hub, cd, clusterTeamOf(deps, hub, cd)),
    )
  )
    return undefined;
  const namespace = cd.metadata.namespace ?? '';
  return {
    ...jobOf(ENFORCE_POLICY_JOB, { hub, namespace, name: cd.metadata.name }),
    dedupId: jobIds.expiryPolicy({ hub, namespace, name: cd.metadata.name }),
    hub,
  };
}
