// The first half of a sweep job: what its first run decides and keeps in the job (ctx.once) for every later run.
// The edge swept already or stale (done at once), else the plan from the informer cache (sweep-plan.ts), packed
// (packed-plan.ts): clusters to act on and planned skips. A cluster already carrying this job's marker was changed
// by an earlier run whose plan was lost with Redis: it is planned as an act, and the pool counts it acted.
import { NotFound } from '../../hive/errors.js';
import { localIso, type PowerAction } from '../../hive/schedule/index.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { JobContext, NamespacedRef } from '../ports.js';
import { listSchedules } from './cluster-schedule.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { catchUpDeadlineMs, compile, type HibernationSchedule, type SweepRecord } from './schedule-resource.js';
import { planSweep, type SweepMode } from './sweep-plan.js';
import { POWER_SWEEP_ANNOTATION } from '../clusters/power-change.js';
import { packPlan, type PackedPlan, type PlannedSkip } from './packed-plan.js';
import type { SweepTarget } from './sweep-cluster.js';

export interface SweepPayload {
  schedule: string;
  edgeAt: string;
  action: PowerAction;
  reason: string;
  mode: SweepMode;
  dryRun?: boolean;
}

export interface SweepSummary {
  schedule: string;
  edge: { at: string; local: string; action: PowerAction; reason: string };
  mode: SweepMode;
  dryRun: boolean;
  acted: Array<NamespacedRef & { action: PowerAction }>;
  skipped: Array<NamespacedRef & { reason: string; message: string }>;
  failed: Array<NamespacedRef & { error: string }>;
  counts: { acted: number; skipped: number; failed: number };
  skippedReasons: Record<string, number>;
  alreadyDone?: SweepRecord;
  /** Set when the sweep did nothing because its edge was stale. */
  stale?: string;
}

/** A sweep starting later than this after its edge is a catch-up. */
const ON_TIME_MS = 60_000;

/** What the first run decided, kept in the job for every later run. */
export interface SweepStart {
  /** The sweep is over before it acts (the edge was swept already, or is stale). */
  done?: SweepSummary;
  /** Without the skipped clusters: those are in `plan`. */
  summary: SweepSummary;
  startedAt: string;
  plan: PackedPlan;
}

/** A plan an older version kept (children and skips as plain lists) when it was upgraded mid-sweep. */
interface OlderStart {
  plan?: PackedPlan;
  children?: SweepTarget[];
  skips?: PlannedSkip[];
}

export function fromOlder(start: SweepStart & OlderStart): SweepStart {
  if (start.plan || start.done) return start;
  return { ...start, plan: packPlan(start.children ?? [], start.skips ?? []) };
}

export async function planStart(deps: ScheduleServiceDeps, p: SweepPayload, ctx: JobContext): Promise<SweepStart> {
  const schedule = await deps.store.get<HibernationSchedule>('HibernationSchedule', stateRef(deps, p.schedule));
  if (!schedule) throw new NotFound(`schedule ${p.schedule} no longer exists`);
  const dryRun = Boolean(p.dryRun || schedule.spec.dryRun);
  const edgeMs = Date.parse(p.edgeAt);
  const now = deps.clock.now();
  const summary: SweepSummary = {
    schedule: p.schedule,
    edge: { at: p.edgeAt, local: localIso(edgeMs, schedule.spec.timeZone), action: p.action, reason: p.reason },
    mode: p.mode,
    dryRun,
    acted: [],
    skipped: [],
    failed: [],
    counts: { acted: 0, skipped: 0, failed: 0 },
    skippedReasons: {},
  };
  const start: SweepStart = { summary, startedAt: new Date(now).toISOString(), plan: packPlan([], []) };
  const last = schedule.status?.lastSweep;
  if (p.mode !== 'manual' && last?.finishedAt && (last.edge ?? '') >= p.edgeAt) {
    ctx.log.info({ schedule: p.schedule, edge: p.edgeAt }, 'edge already swept');
    return { ...start, done: { ...summary, alreadyDone: last } };
  }
  if (p.mode !== 'manual') {
    // A sweep that ran late (workers down, queue backed up) must not replay a stale edge: past the deadline it
    // does nothing; within it, it applies the state the schedule says now; after a newer edge it yields to that.
    const latest = compile(schedule).lastEdge(now);
    if (latest && latest.at > p.edgeAt)
      return { ...start, done: { ...summary, stale: `superseded by the edge at ${latest.local}` } };
    if (now - edgeMs > catchUpDeadlineMs(schedule))
      return {
        ...start,
        done: {
          ...summary,
          stale: `ran ${Math.round((now - edgeMs) / 60_000)} minutes after the edge, beyond catchUpDeadline`,
        },
      };
    if (p.mode === 'edge' && now - edgeMs > ON_TIME_MS) summary.mode = 'catch-up';
  }
  const decisions = planSweep(
    deps,
    schedule,
    listSchedules(deps),
    { atMs: edgeMs, action: p.action, reason: p.reason },
    summary.mode,
    now,
  );
  const acts: SweepTarget[] = [];
  const skips: PlannedSkip[] = [];
  for (const d of decisions) {
    if (d.kind === 'act' || markedBy(deps, d.cluster, ctx.jobId)) {
      // A cluster carrying this job's marker was changed by an earlier run of it (its plan lost with Redis, the
      // cluster now "already" in state): the pool counts it as acted and writes its Event again, keyed.
      if (dryRun) summary.acted.push({ ...d.cluster, action: d.action });
      else acts.push({ cluster: d.cluster, action: d.action, reason: d.reason });
    } else {
      skips.push({
        cluster: d.cluster,
        action: d.action,
        reason: d.reason,
        message: d.message,
        ...(d.consumes ? { consumes: d.consumes } : {}),
      });
    }
  }
  // The 'Planned' step is written by the caller without waiting for it (sweep.ts).
  return { ...start, plan: packPlan(acts, skips) };
}

const markedBy = (deps: ScheduleServiceDeps, ref: NamespacedRef, jobId: string) =>
  deps.store.cached<ClusterDeployment>('ClusterDeployment', ref)?.metadata.annotations?.[POWER_SWEEP_ANNOTATION] ===
  jobId;
