// The sweep job: one per schedule edge (id `sweep.<schedule>.<edgeEpochMs>`, so replicas collapse onto one). It
// plans from the informer cache, fans out one `schedule.apply` child job per cluster on that cluster's hub queue
// (per-hub concurrency) and waits for them as a BullMQ parent, in `waiting-children`, without holding a worker
// slot (a state hub with one slot would otherwise starve its own children). When they have all ended it runs
// again and ends with a summary, also recorded on the schedule's status, which is what keeps a Redis flush from
// replaying an edge. Each step is kept in the job (ctx.once), so a re-run after the children, a retry or a crashed
// worker carries on from the same plan: a late re-run must not turn a timely sweep into a stale one.
import { NotFound } from '../../hive/errors.js';
import { localIso, type Consumption, type PowerAction } from '../../hive/schedule/index.js';
import { handleJob, jobOf, type JobRegistration } from '../job-definition.js';
import { APPLY_JOB, RUN_JOB, SWEEP_JOB } from './schedule-jobs.js';
import {
  WAIT_FOR_CHILDREN,
  type ChildOutcome,
  type JobContext,
  type NamespacedRef,
  type WaitForChildren,
} from '../ports.js';
import { applyPower } from './apply-power.js';
import { listSchedules } from './cluster-schedule.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { jobIds } from '../job-ids.js';
import { catchUpDeadlineMs, compile, type HibernationSchedule, type SweepRecord } from './schedule-resource.js';
import { planSweep, type SweepMode } from './sweep-plan.js';

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
interface SweepStart {
  /** The sweep is over before it fans out (the edge was swept already, or is stale). */
  done?: SweepSummary;
  summary: SweepSummary;
  startedAt: string;
  skips: Array<{
    cluster: NamespacedRef;
    action: PowerAction;
    reason: string;
    message: string;
    consumes?: Consumption;
  }>;
  children: Array<{ cluster: NamespacedRef; action: PowerAction; reason: string }>;
}

export const sweepJobs = (deps: ScheduleServiceDeps): JobRegistration[] => [
  handleJob(SWEEP_JOB, (p, ctx) => runSweep(deps, p, ctx)),
  handleJob(RUN_JOB, (p, ctx) => runSweep(deps, p, ctx)),
  handleJob(APPLY_JOB, (p, ctx) =>
    applyPower(
      deps,
      { hub: p.hub, namespace: p.namespace, name: p.name },
      p.action,
      { schedule: p.schedule, reason: p.reason },
      ctx,
    ),
  ),
];

export async function runSweep(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  ctx: JobContext,
): Promise<SweepSummary | WaitForChildren> {
  if (!ctx.once || !ctx.waitForChildren)
    throw new Error('a schedule sweep needs a job context with child jobs (the worker provides one)');
  const start = await ctx.once('plan', () => planStart(deps, p, ctx));
  if (start.done) return start.done;
  const { summary } = start;
  if (!summary.dryRun && start.skips.length > 0)
    await ctx.once('skips-recorded', () => recordSkips(deps, p, start, ctx.jobId).then(() => true));

  const outcomes = await ctx.waitForChildren(
    start.children.map((c) => ({
      key: jobIds.sweepChild(c.cluster),
      ...jobOf(APPLY_JOB, { schedule: p.schedule, edgeAt: p.edgeAt, action: c.action, reason: c.reason, ...c.cluster }),
      hub: c.cluster.hub,
      target: { kind: 'ClusterDeployment' as const, ...c.cluster },
    })),
    { step: 'FannedOut', message: `Waiting for ${start.children.length} cluster jobs` },
  );
  if (outcomes === WAIT_FOR_CHILDREN) return outcomes;
  outcomes.forEach((o, i) => addOutcome(summary, start.children[i]!, o));

  for (const s of summary.skipped) summary.skippedReasons[s.reason] = (summary.skippedReasons[s.reason] ?? 0) + 1;
  summary.counts = { acted: summary.acted.length, skipped: summary.skipped.length, failed: summary.failed.length };
  await ctx.step(
    'Done',
    `acted ${summary.counts.acted}, skipped ${summary.counts.skipped}, failed ${summary.counts.failed}`,
  );

  if (summary.mode !== 'manual') {
    const record: SweepRecord = {
      edge: p.edgeAt,
      action: p.action,
      mode: summary.mode,
      jobId: ctx.jobId,
      dryRun: summary.dryRun,
      startedAt: start.startedAt,
      finishedAt: new Date(deps.clock.now()).toISOString(),
      ...summary.counts,
      skippedReasons: summary.skippedReasons,
    };
    await deps.store.mergePatch(
      'HibernationSchedule',
      stateRef(deps, p.schedule),
      { status: { lastSweep: record } },
      { subresource: 'status' },
    );
  }
  return summary;
}

async function planStart(deps: ScheduleServiceDeps, p: SweepPayload, ctx: JobContext): Promise<SweepStart> {
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
  const start: SweepStart = { summary, startedAt: new Date(now).toISOString(), skips: [], children: [] };
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
  for (const d of decisions) {
    if (d.kind === 'skip') {
      summary.skipped.push({ ...d.cluster, reason: d.reason, message: d.message });
      start.skips.push({
        cluster: d.cluster,
        action: d.action,
        reason: d.reason,
        message: d.message,
        ...(d.consumes ? { consumes: d.consumes } : {}),
      });
    } else if (dryRun) summary.acted.push({ ...d.cluster, action: d.action });
    else start.children.push({ cluster: d.cluster, action: d.action, reason: d.reason });
  }
  await ctx.step('Planned', `${decisions.length} clusters considered`);
  return start;
}

/** Skipped clusters get an Event saying why; a skip-next-hibernation override that did its one job is consumed. */
async function recordSkips(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  start: SweepStart,
  jobId: string,
): Promise<void> {
  for (const s of start.skips) {
    if (s.consumes) {
      // The plan sees it used up by that edge; its status says so for people. (A run uses none up itself.)
      const name = s.consumes.override;
      await deps.store
        .mergePatch(
          'ClusterOverride',
          stateRef(deps, name),
          { status: { phase: 'Consumed', consumedEdge: s.consumes.edgeAt, updatedAt: start.startedAt } },
          { subresource: 'status' },
        )
        .catch((err: unknown) => deps.log.warn({ err, override: name }, 'cannot mark override consumed'));
    }
    // Unclaimed pool clusters belong to Hive's pool controller: not ours to comment on.
    if (s.reason === 'UnclaimedPoolCluster') continue;
    await deps.store.recordEvent('ClusterDeployment', s.cluster, {
      type: 'Normal',
      reason: 'ScheduleSkipped',
      action: s.action === 'hibernate' ? 'Hibernate' : 'Resume',
      message: `Schedule ${p.schedule}: ${s.action} at ${start.summary.edge.local} skipped (${s.reason}): ${s.message}`,
      // A run that crashed before it kept 'skips-recorded' writes them again: the same Events, not new ones.
      key: `${jobId}/ScheduleSkipped`,
    });
  }
}

function addOutcome(summary: SweepSummary, child: SweepStart['children'][number], o: ChildOutcome): void {
  if (o.state === 'failed') {
    summary.failed.push({ ...child.cluster, error: o.error });
    return;
  }
  const result = o.result as { outcome?: string; reason?: string; message?: string } | null;
  // `NothingToDo`: the cluster was deleted between the plan and the patch (the worker's NotFound outcome).
  if (result?.outcome === 'skipped' || result?.outcome === 'NothingToDo') {
    summary.skipped.push({ ...child.cluster, reason: result.reason ?? 'Skipped', message: result.message ?? '' });
  } else summary.acted.push({ ...child.cluster, action: child.action });
}
