// One cluster, outside a schedule-wide sweep: when a keep-awake or the install grace period lapses (a
// cluster-specific edge), and for `enforce: true` schedules whenever the cluster changes. Both ask the one planner
// (power-planner.ts), so enforcement holds what the preview shows as held and acts where a run would. A handled
// cluster-specific edge is recorded on the cluster (cluster-edge-record.ts), so a restart or the resync never
// replays it.
import {
  CLUSTER_EDGE_ANNOTATION,
  clusterEdgeHandled,
  enforceDecision,
  scheduleDecision,
  type PowerAction,
  type PowerDecision,
} from '../../hive/schedule/index.js';
import { handleJob } from '../job-definition.js';
import { RECONCILE_CLUSTER_JOB } from './schedule-jobs.js';
import { applyPower, type ApplyOutcome, type ApplyRun } from './apply-power.js';
import {
  clusterFacts,
  governance,
  listSchedules,
  planFor,
  plannerContext,
  type StateDeps,
} from './cluster-schedule.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { catchUpDeadlineMs, DEFAULT_CATCH_UP_DEADLINE, type HibernationSchedule } from './schedule-resource.js';
import type { ClusterDeployment } from '../../hive/types.js';

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

type Verdict =
  | { act: true; action: PowerAction; reason: string; schedule: string; dryRun?: boolean }
  /** `consumes`: the skip-next-hibernation override that skipped this edge (a keep-awake lapsing into the night). */
  | { act: false; message: string; consumes?: { override: string; edgeAt: string } };

/** What an `enforce: true` schedule does to the cluster now (power-planner.ts); undefined when it does not enforce. */
export function enforcement(
  deps: StateDeps,
  schedule: HibernationSchedule,
  hub: string,
  cd: ClusterDeployment,
  nowMs: number,
): PowerDecision | undefined {
  if (!schedule.spec.enforce) return undefined;
  return enforceDecision(plannerContext(schedule), clusterFacts(deps, hub, cd), nowMs);
}

const skipped = (d: Extract<PowerDecision, { kind: 'skip' }>) =>
  d.reason === 'AlreadyInState' ? d.message : `${d.reason}: ${d.message}`;

function verdict(deps: ScheduleServiceDeps, p: ReconcilePayload): Verdict {
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', {
    hub: p.hub,
    namespace: p.namespace,
    name: p.name,
  });
  if (!cd) return { act: false, message: 'the cluster no longer exists' };
  const gov = governance(deps, listSchedules(deps), p.hub, cd);
  if (!gov.schedule) return { act: false, message: gov.why };
  const schedule = gov.schedule;
  const now = deps.clock.now();
  const by = { schedule: schedule.metadata.name, ...(schedule.spec.dryRun ? { dryRun: true } : {}) };
  if (p.edgeAt) {
    const at = Date.parse(p.edgeAt);
    // The cluster's own edge at this instant (a lapse is not one of the schedule's edges): which action it is.
    const edge = planFor(deps, schedule, p.hub, cd, at - 1, at).edges.find((e) => Date.parse(e.at) === at);
    if (!edge) return { act: false, message: `no action for this cluster at ${p.edgeAt}` };
    // The schedule's catchUpDeadline bounds cluster-specific edges too (a keep-awake lapsing while we were down).
    if (now - at > catchUpDeadlineMs(schedule)) {
      return {
        act: false,
        message: `the edge at ${p.edgeAt} is older than catchUpDeadline ${schedule.spec.catchUpDeadline ?? DEFAULT_CATCH_UP_DEADLINE}; not replayed`,
      };
    }
    // Whether the cluster's state allows it is applyPower's to judge, with the Event a sweep's cluster job leaves.
    const d = scheduleDecision(plannerContext(schedule), clusterFacts(deps, p.hub, cd), {
      kind: 'edge',
      atMs: at,
      action: edge.action,
      reason: edge.reason,
    });
    if (d.kind === 'act') return { act: true, action: d.action, reason: d.reason, ...by };
    return {
      act: false,
      message: `no action for this cluster at ${p.edgeAt}: ${skipped(d)}`,
      ...(d.consumes && !schedule.spec.dryRun ? { consumes: d.consumes } : {}),
    };
  }
  const d = enforcement(deps, schedule, p.hub, cd, now);
  if (!d) return { act: false, message: `schedule ${schedule.metadata.name} acts at edges only` };
  return d.kind === 'act'
    ? { act: true, action: d.action, reason: `enforced: ${d.reason}`, ...by }
    : { act: false, message: skipped(d) };
}

/**
 * An enforcement job kept its first decision, so a run after a crash reports the change it made. But while it waits
 * for a retry it holds the cluster's dedup id, and newer enforcement folds into it: when the schedule now wants the
 * other state (a keep-awake made meanwhile, found when a sweep's patch made the first attempt a Conflict), the
 * decision of now wins, or the retry would undo what people did since.
 */
function enforceAgain(deps: ScheduleServiceDeps, p: ReconcilePayload, frozen: Extract<Verdict, { act: true }>) {
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', {
    hub: p.hub,
    namespace: p.namespace,
    name: p.name,
  });
  const schedule = cd && governance(deps, listSchedules(deps), p.hub, cd).schedule;
  const now = schedule && cd ? enforcement(deps, schedule, p.hub, cd, deps.clock.now()) : undefined;
  return now && now.action !== frozen.action ? verdict(deps, p) : undefined;
}

export async function reconcileCluster(
  deps: ScheduleServiceDeps,
  p: ReconcilePayload,
  run?: ApplyRun,
): Promise<ApplyOutcome | { outcome: 'none'; message: string }> {
  if (p.override) {
    const message = `lapsed at ${p.edgeAt ?? new Date(deps.clock.now()).toISOString()}`;
    await deps.store
      .mergePatch(
        'ClusterOverride',
        stateRef(deps, p.override),
        { status: { phase: 'Expired', message, updatedAt: new Date(deps.clock.now()).toISOString() } },
        { subresource: 'status' },
      )
      .catch((err: unknown) => deps.log.warn({ err, override: p.override }, 'cannot mark override expired'));
  }
  const ref = { hub: p.hub, namespace: p.namespace, name: p.name };
  const handled = (cd: ClusterDeployment | undefined) =>
    Boolean(cd && p.edgeAt && clusterEdgeHandled(cd, Date.parse(p.edgeAt)));
  // Kept in the job: a run after a crash finds the first run's patch applied and the cluster "already" there, and
  // must carry out (and report) what the first run decided.
  const decided = async (): Promise<Verdict> =>
    handled(deps.store.cached<ClusterDeployment>('ClusterDeployment', ref))
      ? { act: false, message: `the edge at ${p.edgeAt} was already handled` }
      : verdict(deps, p);
  const frozen = run?.once ? await run.once('decision', decided) : await decided();
  const v = frozen.act && run?.once && p.cause === 'enforce' ? (enforceAgain(deps, p, frozen) ?? frozen) : frozen;
  if (!v.act && v.consumes) {
    // As a sweep does for the schedule's own edges: the override did its one job, and its status says so.
    const { override, edgeAt } = v.consumes;
    await deps.store
      .mergePatch(
        'ClusterOverride',
        stateRef(deps, override),
        { status: { phase: 'Consumed', consumedEdge: edgeAt, updatedAt: new Date(deps.clock.now()).toISOString() } },
        { subresource: 'status' },
      )
      .catch((err: unknown) => deps.log.warn({ err, override }, 'cannot mark override consumed'));
  }
  const outcome = v.act
    ? await applyPower(deps, ref, v.action, { schedule: v.schedule, reason: v.reason, dryRun: v.dryRun }, run)
    : ({ outcome: 'none', message: v.message } as const);
  // Recorded once a schedule handled the edge, whatever the outcome. Clusters no schedule governs, unclaimed pool
  // clusters among them, are not written to.
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', ref);
  if (p.edgeAt && cd && !handled(cd) && governance(deps, listSchedules(deps), p.hub, cd).schedule) {
    await deps.store.mergePatch('ClusterDeployment', ref, {
      metadata: { annotations: { [CLUSTER_EDGE_ANNOTATION]: p.edgeAt } },
    });
  }
  return outcome;
}

export const reconcileClusterJob = (deps: ScheduleServiceDeps) =>
  handleJob(RECONCILE_CLUSTER_JOB, (p, ctx) => reconcileCluster(deps, p, ctx));
