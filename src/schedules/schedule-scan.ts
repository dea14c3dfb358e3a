// The rules the schedule timers apply at start and the resync applies every interval: which schedule edge is owed
// a sweep (unswept and within its catchUpDeadline) or a `lastMissed` record (beyond it), and which cluster-specific
// edges (a keep-awake lapsing, the install grace period ending) are still to be applied. One copy, so a restart
// and the resync can never disagree about what was missed.
import { jobOf } from '../services/job-definition.js';
import { clusterEdgeHandled, INSTALL_GRACE_MS, installedAtMs } from '../hive/schedule/index.js';
import type { ServiceDeps, StateLocation } from '../services/ports.js';
import { jobIds } from '../services/job-ids.js';
import type { FixedJob } from '../services/resync/repair.js';
import {
  catchUpDeadlineMs,
  compile,
  governance,
  listSchedules,
  planFor,
  RECONCILE_CLUSTER_JOB,
  stateRef,
  SWEEP_JOB,
  toPowerOverride,
  type ClusterOverride,
  type HibernationSchedule,
  type SweepPayload,
} from '../services/schedules/index.js';
import type { ClusterDeployment } from '../hive/types.js';
import type { TeamScope } from '../services/team-scope.js';

export type ScheduleScanDeps = ServiceDeps & StateLocation & TeamScope;

/** An edge reached within this long is a normal firing, not a catch-up. */
const ON_TIME_MS = 60_000;

export interface Edge {
  at: string;
  action: 'hibernate' | 'resume';
  reason: string;
}

export function sweepJob(
  deps: StateLocation,
  cr: HibernationSchedule,
  edge: Edge,
  mode: 'edge' | 'catch-up',
): FixedJob {
  const payload: SweepPayload = {
    schedule: cr.metadata.name,
    edgeAt: edge.at,
    action: edge.action,
    reason: edge.reason,
    mode,
  };
  return {
    ...jobOf(SWEEP_JOB, payload),
    jobId: jobIds.sweep(cr.metadata.name, Date.parse(edge.at)),
    hub: deps.stateHub,
  };
}

export type CatchUp = { kind: 'sweep'; edge: Edge; job: FixedJob } | { kind: 'missed'; edge: Edge; reason: string };

/**
 * What the latest edge at or before now is owed, if anything: a sweep when no sweep recorded it and it is at most
 * `catchUpDeadline` old (the sweep then applies the state the schedule says now), else a `lastMissed` record.
 * Throws when the schedule cannot be evaluated (one written straight to Kubernetes may be invalid).
 */
export function scheduleCatchUp(deps: StateLocation, cr: HibernationSchedule, now: number): CatchUp | undefined {
  const last = compile(cr).lastEdge(now);
  // An edge from before the schedule existed was never the schedule's to act on.
  if (!last || Date.parse(last.at) < Date.parse(cr.metadata.creationTimestamp ?? '')) return undefined;
  const lastSweep = cr.status?.lastSweep;
  if (lastSweep?.finishedAt && (lastSweep.edge ?? '') >= last.at) return undefined;
  const age = now - Date.parse(last.at);
  if (age <= catchUpDeadlineMs(cr))
    return { kind: 'sweep', edge: last, job: sweepJob(deps, cr, last, age <= ON_TIME_MS ? 'edge' : 'catch-up') };
  if (cr.status?.lastMissed?.edge === last.at) return undefined;
  return {
    kind: 'missed',
    edge: last,
    reason: `missed by ${Math.round(age / 60_000)} minutes, beyond catchUpDeadline ${cr.spec.catchUpDeadline ?? '1h'}: not replayed; the next edge applies`,
  };
}

export async function recordMissed(
  deps: ScheduleScanDeps,
  cr: HibernationSchedule,
  missed: Extract<CatchUp, { kind: 'missed' }>,
  now: number,
): Promise<void> {
  const { edge, reason } = missed;
  deps.log.warn({ schedule: cr.metadata.name, edge: edge.at }, reason);
  await deps.store.mergePatch(
    'HibernationSchedule',
    stateRef(deps, cr.metadata.name),
    { status: { lastMissed: { edge: edge.at, action: edge.action, reason, at: new Date(now).toISOString() } } },
    { subresource: 'status' },
  );
}

/** A cluster-specific edge: an override or the install grace period lapsing at `atMs`. */
export interface ClusterEdge {
  /** Names the timer: `override/<name>` or `grace/<hub>/<namespace>/<name>`. */
  key: string;
  hub: string;
  namespace: string;
  name: string;
  atMs: number;
  cause: string;
  override?: string;
}

export function lapseJob(e: ClusterEdge): FixedJob {
  const payload = {
    hub: e.hub,
    namespace: e.namespace,
    name: e.name,
    cause: e.cause,
    edgeAt: new Date(e.atMs).toISOString(),
    ...(e.override ? { override: e.override } : {}),
  };
  const target = { kind: 'ClusterDeployment' as const, hub: e.hub, namespace: e.namespace, name: e.name };
  return { ...jobOf(RECONCILE_CLUSTER_JOB, payload), jobId: jobIds.lapse(e, e.atMs), hub: e.hub, target };
}

/**
 * Still to apply: not older than the governing schedule's catchUpDeadline and, once lapsed, on a cluster that a
 * schedule governs (for any other there is nothing to apply) and whose record does not show it handled. A lapsed
 * install grace period is owed only where it is an edge of the cluster's plan (graceActs).
 */
function owed(
  deps: ScheduleScanDeps,
  hub: string,
  cd: ClusterDeployment | undefined,
  atMs: number,
  now: number,
  kind: 'override' | 'grace',
): boolean {
  const schedule = cd && governance(deps, listSchedules(deps), hub, cd).schedule;
  if (beyondDeadline(schedule, atMs, now)) return false;
  if (atMs > now) return true;
  if (schedule === undefined || cd === undefined || clusterEdgeHandled(cd, atMs)) return false;
  return kind === 'override' || graceActs(deps, schedule, hub, cd, atMs);
}

/**
 * Whether the end of the install grace period at `atMs` is an edge of the cluster's plan. It is one only where the
 * schedule says Hibernating at that instant (cluster-plan.ts); elsewhere (office hours, a schedule that waives the
 * grace period) the lapse changes nothing, and its reconcile job found no action and still wrote the cluster to
 * record it: a job and a PATCH per cluster. Such a lapse needs no record either: a start or the resync asks this
 * again and finds nothing owed. Decided when the timer fires, not when it is armed: the schedule may change between.
 * A keep-awake lapse keeps its job whatever the schedule says: the job marks the override Expired.
 */
function graceActs(
  deps: ScheduleScanDeps,
  schedule: HibernationSchedule,
  hub: string,
  cd: ClusterDeployment,
  atMs: number,
): boolean {
  try {
    return planFor(deps, schedule, hub, cd, atMs - 1, atMs).edges.some((e) => Date.parse(e.at) === atMs);
  } catch {
    return true; // a schedule written straight to Kubernetes may not compile: its job reports why
  }
}

const beyondDeadline = (schedule: HibernationSchedule | undefined, atMs: number, now: number) =>
  atMs < now - (schedule ? catchUpDeadlineMs(schedule) : 3_600_000);

/**
 * Whether an armed cluster-specific edge is to be dropped when its timer fires: older than its schedule's
 * catchUpDeadline now (the process stalled, the clock jumped), which a start or the resync would not replay either,
 * or the end of an install grace period that is no edge of the cluster's plan (graceActs).
 */
export function clusterEdgeDropped(deps: ScheduleScanDeps, e: ClusterEdge, now: number): boolean {
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', e);
  const schedule = cd && governance(deps, listSchedules(deps), e.hub, cd).schedule;
  if (beyondDeadline(schedule, e.atMs, now)) return true;
  return !e.override && schedule !== undefined && cd !== undefined && !graceActs(deps, schedule, e.hub, cd, e.atMs);
}

/** The lapse of a keep-awake override, if it is still to apply. */
export function overrideEdge(deps: ScheduleScanDeps, o: ClusterOverride, now: number): ClusterEdge | undefined {
  if (o.spec?.type !== 'keepAwake') return undefined;
  const p = toPowerOverride(o);
  const { hub, namespace, name } = o.spec.cluster;
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', o.spec.cluster);
  if (p.untilMs === undefined || !owed(deps, hub, cd, p.untilMs, now, 'override')) return undefined;
  return {
    key: `override/${o.metadata.name}`,
    hub,
    namespace,
    name,
    atMs: p.untilMs,
    cause: `keep-awake override ${o.metadata.name} lapsed`,
    override: o.metadata.name,
  };
}

/** The end of a cluster's install grace period, if it is still to apply. */
export function graceEdge(
  deps: ScheduleScanDeps,
  hub: string,
  cd: ClusterDeployment,
  now: number,
): ClusterEdge | undefined {
  const installed = installedAtMs(cd);
  if (installed === undefined || !owed(deps, hub, cd, installed + INSTALL_GRACE_MS, now, 'grace')) return undefined;
  const namespace = cd.metadata.namespace ?? '';
  return {
    key: `grace/${hub}/${namespace}/${cd.metadata.name}`,
    hub,
    namespace,
    name: cd.metadata.name,
    atMs: installed + INSTALL_GRACE_MS,
    cause: 'install grace period lapsed',
  };
}

/** Every cluster-specific edge still to apply, lapsed or not, from the informer caches. */
export function clusterEdges(deps: ScheduleScanDeps, now: number): ClusterEdge[] {
  const out: ClusterEdge[] = [];
  for (const { object } of deps.store.cachedList<ClusterOverride>('ClusterOverride', {
    hub: deps.stateHub,
    namespace: deps.stateNamespace,
  })) {
    const e = overrideEdge(deps, object, now);
    if (e) out.push(e);
  }
  for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    const e = graceEdge(deps, hub, object, now);
    if (e) out.push(e);
  }
  return out;
}
