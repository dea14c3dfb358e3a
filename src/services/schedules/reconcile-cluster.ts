// One cluster, outside a schedule-wide sweep: when a keep-awake or the install grace period lapses (a
// cluster-specific edge), and for `enforce: true` schedules whenever the cluster changes.
import { CLUSTER_EDGE_ANNOTATION, clusterEdgeHandled, requestedState, type CdLike, type PowerAction } from '../../hive/schedule/index.js';
import type { JobHandler, KubeObject } from '../ports.js';
import { applyPower, type ApplyOutcome, type ApplyRun } from './apply-power.js';
import { governance, listSchedules, planFor } from './cluster-schedule.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { catchUpDeadlineMs, DEFAULT_CATCH_UP_DEADLINE } from './schedule-resource.js';

export const RECONCILE_CLUSTER_JOB = 'schedule.reconcile-cluster';

export interface ReconcilePayload {
  hub: string;
  namespace: string;
  name: string;
  cause: string;
  /** Act only if the cluster's own plan has an (unskipped) edge at this instant: edge semantics. */
  edgeAt?: string;
  /** The ClusterOverride whose lapse this is; its status is set to Expired. */
  override?: string;
}

export async function reconcileCluster(deps: ScheduleServiceDeps, p: ReconcilePayload, run?: ApplyRun): Promise<ApplyOutcome | { outcome: 'none'; message: string }> {
  const ref = { hub: p.hub, namespace: p.namespace, name: p.name };
  if (p.override) {
    const message = `lapsed at ${p.edgeAt ?? new Date(deps.clock.now()).toISOString()}`;
    await deps.store
      .mergePatch('ClusterOverride', stateRef(deps, p.override), { status: { phase: 'Expired', message, updatedAt: new Date(deps.clock.now()).toISOString() } }, { subresource: 'status' })
      .catch((err: unknown) => deps.log.warn({ err, override: p.override }, 'cannot mark override expired'));
  }
  const cd = deps.store.cached<CdLike & KubeObject>('ClusterDeployment', ref);
  if (!cd) return { outcome: 'none', message: 'the cluster no longer exists' };
  if (p.edgeAt && clusterEdgeHandled(cd, Date.parse(p.edgeAt))) return { outcome: 'none', message: `the edge at ${p.edgeAt} was already handled` };
  const outcome = await reconcileExisting(deps, p, cd, run);
  // Recorded once a schedule handled it, whatever the outcome, so a restart or the resync never replays it
  // (cluster-edge-record.ts). Clusters no schedule governs, unclaimed pool clusters among them, are not written to.
  if (p.edgeAt && !clusterEdgeHandled(cd, Date.parse(p.edgeAt)) && governance(listSchedules(deps), p.hub, cd).schedule) {
    await deps.store.mergePatch('ClusterDeployment', ref, { metadata: { annotations: { [CLUSTER_EDGE_ANNOTATION]: p.edgeAt } } });
  }
  return outcome;
}

async function reconcileExisting(deps: ScheduleServiceDeps, p: ReconcilePayload, cd: CdLike & KubeObject, run?: ApplyRun): Promise<ApplyOutcome | { outcome: 'none'; message: string }> {
  const ref = { hub: p.hub, namespace: p.namespace, name: p.name };
  const gov = governance(listSchedules(deps), p.hub, cd);
  if (!gov.schedule) return { outcome: 'none', message: gov.why };
  const now = deps.clock.now();
  let action: PowerAction;
  let reason: string;
  if (p.edgeAt) {
    const at = Date.parse(p.edgeAt);
    const edge = planFor(deps, gov.schedule, p.hub, cd, at - 1, at).edges.find((e) => Date.parse(e.at) === at && !e.skipped);
    if (!edge) return { outcome: 'none', message: `no action for this cluster at ${p.edgeAt}` };
    // The schedule's catchUpDeadline bounds cluster-specific edges too (a keep-awake lapsing while we were down).
    const deadline = catchUpDeadlineMs(gov.schedule);
    if (now - at > deadline) return { outcome: 'none', message: `the edge at ${p.edgeAt} is older than catchUpDeadline ${gov.schedule.spec.catchUpDeadline ?? DEFAULT_CATCH_UP_DEADLINE}; not replayed` };
    action = edge.action;
    reason = edge.reason;
  } else {
    if (!gov.schedule.spec.enforce) return { outcome: 'none', message: `schedule ${gov.schedule.metadata.name} acts at edges only` };
    const plan = planFor(deps, gov.schedule, p.hub, cd, now - 1, now);
    if (plan.state === requestedState(cd)) return { outcome: 'none', message: `already ${plan.state}` };
    action = plan.state === 'Hibernating' ? 'hibernate' : 'resume';
    reason = `enforced: ${plan.reason}`;
  }
  return applyPower(deps, ref, action, { schedule: gov.schedule.metadata.name, reason, dryRun: gov.schedule.spec.dryRun }, run);
}

export function reconcileClusterHandler(deps: ScheduleServiceDeps): JobHandler {
  return async (raw, ctx) => reconcileCluster(deps, raw as unknown as ReconcilePayload, ctx);
}
