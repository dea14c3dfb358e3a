// Where an expiring object's warnings stand: which lead is due, which are superseded or moot, when the next falls
// due. The timers, the resync and GET /v1/warnings all ask this one function, so they agree on what is owed.
import {
  effectiveLimits,
  planWarnings,
  readWarningRecord,
  type WarningPlan,
  type WarningRecord,
} from '../../hive/expiry/index.js';
import type { ExpiryServiceDeps } from './deps.js';
import { enforcedPolicies } from './policy-store.js';
import type { Expiring } from './targets.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { clusterTeamOf } from '../team-scope.js';
import { endpointsFor } from './expiring-team.js';

/** The pseudo-endpoint recording the Kubernetes Event, in the delivery record next to the webhook endpoints. */
export const EVENT_SINK = 'kubernetes-event';

type PlanDeps = Pick<ExpiryServiceDeps, 'store' | 'stateHub' | 'stateNamespace' | 'teams'>;

export function warningLeads(deps: PlanDeps, target: Expiring): number[] {
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', target.cluster) ?? {
    metadata: { name: target.cluster.name, namespace: target.cluster.namespace },
  };
  return effectiveLimits(enforcedPolicies(deps), target.cluster.hub, cd, clusterTeamOf(deps, target.cluster.hub, cd))
    .warningLeadsMs;
}

/**
 * A lead is delivered once its Event and every enabled webhook endpoint have it (the record on the object, written
 * after each delivery), or once a more urgent lead made it moot. So a warning an endpoint missed (its receiver was
 * down past the job's attempts, Redis lost the job) stays due until it reaches it or stops being useful.
 */
export function warningPlan(
  deps: PlanDeps,
  target: Expiring,
  nowMs: number,
): WarningPlan & { record: WarningRecord; owedTo: string[] } {
  const record = readWarningRecord(target.annotations, target.expiresAtMs);
  // A team's endpoints are owed only its own team's warnings.
  const sinks = [EVENT_SINK, ...endpointsFor(deps, target).map((e) => e.metadata.name)];
  const missing = (lead: string) =>
    record.sent[lead]?.superseded ? [] : sinks.filter((sink) => !record.sent[lead]?.[sink]);
  const plan = planWarnings(
    target.expiresAtMs,
    warningLeads(deps, target),
    nowMs,
    (lead) => missing(lead).length === 0,
    target.setAtMs,
  );
  /** Where the due warning has still to go. */
  const owedTo = plan.due ? missing(plan.due.lead) : [];
  return { ...plan, record, owedTo };
}
