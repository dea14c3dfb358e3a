// The first half of a sweep job: what its first run decides and keeps in the job (ctx.once) for every later run.
// The edge swept already or stale (done at once, as the live schedule says), else the plan from the informer cache
// (sweep-plan.ts; made while the schedule's live GET is in flight, and made again if the GET disagrees), packed
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

/**
 * The schedule's live GET is what the sweep acts on: it confirms `status.lastSweep`, so a replay after a Redis flush
 * cannot act on an edge already swept (the informer cache may not have seen that record yet). The GET is sent first
 * and the plan is made from the cached schedule while it is in flight; when the GET answers, that plan is kept only
 * if the live schedule plans the same (same object, labels, spec and lastSweep, and the same verdict now), else the
 * sweep decides again from the live object. Nothing acts before the GET has answered.
 */
export async function planStart(deps: ScheduleServiceDeps, p: SweepPayload, ctx: JobContext): Promise<SweepStart> {
  const ref = stateRef(deps, p.schedule);
  const live = deps.store.get<HibernationSchedule>('HibernationSchedule', ref);
  live.catch(() => {}); // awaited below
  const cached = deps.store.cached<HibernationSchedule>('HibernationSchedule', ref);
  let early: { schedule: HibernationSchedule; start: SweepStart } | undefined;
  if (cached) {
    // Planning is synchronous (about a second at 10,000 clusters): the GET must be on the wire before it starts.
    await new Promise((r) => setImmediate(r));
    try {
      const start = verdict(p, cached, deps.clock.now());
      if (!start.done) early = { schedule: cached, start: plan(deps, p, ctx, cached, start) };
    } catch {
      // A schedule that cannot be evaluated: decided from the live object below, which reports it.
    }
  }
  const schedule = await live;
  if (!schedule) throw new NotFound(`schedule ${p.schedule} no longer exists`);
  const start = verdict(p, schedule, deps.clock.now());
  if (start.done) {
    if (start.done.alreadyDone) ctx.log.info({ schedule: p.schedule, edge: p.edgeAt }, 'edge already swept');
    return start;
  }
  if (early && early.start.summary.mode === start.summary.mode && samePlanInputs(early.schedule, schedule))
    return early.start;
  if (early) ctx.log.info({ schedule: p.schedule, edge: p.edgeAt }, 'schedule changed since cached: planned again');
  return plan(deps, p, ctx, schedule, start);
}

/** What of the schedule the plan depends on: a status write (nextEdge at every edge) does not change it. */
const planInputs = (s: HibernationSchedule) =>
  JSON.stringify([s.metadata.uid, s.metadata.labels ?? {}, s.spec, s.status?.lastSweep ?? null]);

const samePlanInputs = (a: HibernationSchedule, b: HibernationSchedule) =>
  a.metadata.resourceVersion === b.metadata.resourceVersion || planInputs(a) === planInputs(b);

/** The sweep over before it plans (the edge swept already, or stale), else its summary and mode so far. */
function verdict(p: SweepPayload, schedule: HibernationSchedule, now: number): SweepStart {
  const dryRun = Boolean(p.dryRun || schedule.spec.dryRun);
  const edgeMs = Date.parse(p.edgeAt);
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
  if (p.mode !== 'manual' && last?.finishedAt && (last.edge ?? '') >= p.edgeAt)
    return { ...start, done: { ...summary, alreadyDone: last } };
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
  return start;
}

/** The plan for a sweep `verdict` let go on. */
function plan(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  ctx: JobContext,
  schedule: HibernationSchedule,
  start: SweepStart,
): SweepStart {
  const { summary } = start;
  const decisions = planSweep(
    deps,
    schedule,
    listSchedules(deps),
    { atMs: Date.parse(p.edgeAt), action: p.action, reason: p.reason },
    summary.mode,
    Date.parse(start.startedAt),
  );
  const acts: SweepTarget[] = [];
  const skips: PlannedSkip[] = [];
  for (const d of decisions) {
    if (d.kind === 'act' || markedBy(deps, d.cluster, ctx.jobId)) {
      // A cluster carrying this job's marker was changed by an earlier run of it (its plan lost with Redis, the
      // cluster now "already" in state): the pool counts it as acted and writes its Event again, keyed.
      if (summary.dryRun) summary.acted.push({ ...d.cluster, action: d.action });
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
