// The sweep job: one per schedule edge (id `sweep.<schedule>.<edgeEpochMs>`, so replicas collapse onto one; a run
// someone asked for is `schedule.run`). It plans once from the informer cache and keeps the plan in the job
// (ctx.once, packed; sweep-start.ts), so a retry, a crashed worker or a stalled job taken over carries on from the
// same plan: a late re-run must not turn a timely sweep into a stale one. The pool starts as soon as the plan is
// made, so neither the plan's write nor the 'Planned' step stands between the edge and the first PATCH (runSweep).
// It then acts itself, through a bounded pool per hub (sweep-pool.ts; config sweepConcurrency), every hub at once:
// one conditional PATCH per cluster, which also writes the job's id as the cluster's marker (sweep-cluster.ts).
// The marker in Kubernetes is the per-cluster checkpoint: a run of the same job again counts a marked cluster as
// acted and never patches it twice, and nothing per cluster goes to Redis. The audit Events wait until every patch
// of the sweep has been answered, on every hub, and are all written before the job ends. The summary is also
// recorded on the schedule's status, which is what keeps a Redis flush from replaying an edge (the resync enqueues
// an unrecorded edge again, under the same id).
import type { PowerAction } from '../../hive/schedule/index.js';
import { handleJob, type JobRegistration } from '../job-definition.js';
import { APPLY_JOB, RUN_JOB, SWEEP_JOB } from './schedule-jobs.js';
import type { JobContext, NamespacedRef } from '../ports.js';
import { applyPower } from './apply-power.js';
import { DEFAULT_SWEEP_CONCURRENCY, stateRef, type ScheduleServiceDeps } from './deps.js';
import type { SweepRecord } from './schedule-resource.js';
import { unpackActs, unpackSkips, type PlannedSkip } from './packed-plan.js';
import { sweepCluster, type ClusterOutcome, type SweepTarget } from './sweep-cluster.js';
import { createHubPool } from './sweep-pool.js';
import { startProgress } from './sweep-progress.js';
import { fromOlder, planStart, type SweepPayload, type SweepStart, type SweepSummary } from './sweep-start.js';

export type { SweepPayload, SweepSummary } from './sweep-start.js';

export const sweepJobs = (deps: ScheduleServiceDeps): JobRegistration[] => [
  handleJob(SWEEP_JOB, (p, ctx) => runSweep(deps, p, ctx)),
  handleJob(RUN_JOB, (p, ctx) => runSweep(deps, p, ctx)),
  // Nothing enqueues it any more: a per-cluster job queued by an older version still runs.
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

export async function runSweep(deps: ScheduleServiceDeps, p: SweepPayload, ctx: JobContext): Promise<SweepSummary> {
  if (!ctx.once) throw new Error('a schedule sweep needs a job context that keeps its plan (the worker provides one)');
  // A fresh plan starts its pool the moment it is made, while ctx.once writes it to the job (at 10,000 clusters
  // the write is a large part of the time from the edge to the first PATCH). Safe without the plan: a run killed
  // before the write lands plans again, and a cluster carrying this job's marker is planned as acted (markedBy).
  let acting: Promise<SweepSummary> | undefined;
  let start: SweepStart;
  try {
    start = fromOlder(
      await ctx.once('plan', async () => {
        const made = await planStart(deps, p, ctx);
        if (!made.done) {
          acting = carryOut(deps, p, ctx, made, true);
          acting.catch(() => {}); // awaited below, after the write
        }
        return made;
      }),
    );
  } catch (err) {
    // The plan was not kept: the pool is let finish (the markers it writes make a retry count those clusters).
    await acting?.catch(() => {});
    throw err;
  }
  if (start.done) return start.done;
  const summary = await (acting ?? carryOut(deps, p, ctx, start, false));

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

/** The plan carried out; a copy of its summary, so the one being written as the plan stays as planned. */
async function carryOut(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  ctx: JobContext,
  start: SweepStart,
  fresh: boolean,
): Promise<SweepSummary> {
  const skips = unpackSkips(start.plan);
  const summary: SweepSummary = {
    ...start.summary,
    acted: [...start.summary.acted],
    skipped: skips.map((s) => ({ ...s.cluster, reason: s.reason, message: s.message })),
    failed: [],
    skippedReasons: {},
  };
  const planned = start.plan.acts.length + skips.length + summary.acted.length;
  // Not awaited: a step is for people watching, and its write must not stand before the first PATCH.
  const steps = fresh ? [stepOf(ctx)('Planned', `${planned} clusters considered`)] : [];
  if (!summary.dryRun) await act(deps, p, ctx, summary, skips, unpackActs(start.plan));
  await Promise.all(steps);
  return summary;
}

const stepOf = (ctx: JobContext) => (name: string, message: string) =>
  ctx.step(name, message).catch((err: unknown) => ctx.log.warn({ err, step: name }, 'cannot record sweep step'));

/**
 * The pool's work: each planned cluster once (sweep-cluster.ts), then its Event; the planned skips' Events and
 * consumed overrides as later tasks. Adds the outcomes to the summary in plan order.
 */
async function act(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  ctx: JobContext,
  summary: SweepSummary,
  skips: readonly PlannedSkip[],
  targets: readonly SweepTarget[],
): Promise<void> {
  const outcomes = new Array<ClusterOutcome | undefined>(targets.length);
  const byHub = new Map<string, number[]>();
  targets.forEach((t, i) => {
    const list = byHub.get(t.cluster.hub);
    if (list) list.push(i);
    else byHub.set(t.cluster.hub, [i]);
  });
  const width = (hub: string) => deps.sweepConcurrency?.(hub) ?? DEFAULT_SWEEP_CONCURRENCY;
  const progress = startProgress(ctx, targets.length, summary.skipped.length);
  const run = { jobId: ctx.jobId, schedule: p.schedule, signal: ctx.signal };
  // Steps are for people watching: one that cannot be written (Redis away for a moment) must not stop the pool.
  const step = stepOf(ctx);
  const steps = [step('Patching', `${targets.length} clusters, ${byHub.size} hubs`)];
  let patched = 0;
  const pool = createHubPool<number>({
    items: byHub,
    width,
    signal: ctx.signal,
    work: async (i, _hub, signal) => {
      const t = targets[i]!;
      const o = await sweepCluster(deps, t, { ...run, signal });
      outcomes[i] = o;
      progress.count(o.outcome);
      if (o.outcome === 'acted') pool.later(t.cluster.hub, () => actedEvent(deps, p, ctx.jobId, t));
      else if (o.outcome === 'skipped' && o.reason !== 'UnclaimedPoolCluster' && o.reason !== 'NotFound')
        pool.later(t.cluster.hub, () => skippedEvent(deps, p, summary, ctx.jobId, { ...t, ...o }));
      if (++patched === targets.length) steps.push(step('Events', 'every cluster judged; writing the Events'));
    },
  });
  for (const s of skips) {
    if (s.consumes) pool.later(deps.stateHub, () => consume(deps, s.consumes!.override, s.consumes!.edgeAt));
    // Unclaimed pool clusters belong to Hive's pool controller: not ours to comment on.
    if (s.reason !== 'UnclaimedPoolCluster')
      pool.later(s.cluster.hub, () => skippedEvent(deps, p, summary, ctx.jobId, s));
  }
  try {
    await pool.run();
  } finally {
    await progress.stop();
  }
  await Promise.all(steps);
  targets.forEach((t, i) => {
    const o = outcomes[i]!;
    if (o.outcome === 'acted') summary.acted.push({ ...t.cluster, action: t.action });
    else if (o.outcome === 'skipped') summary.skipped.push({ ...t.cluster, reason: o.reason, message: o.message });
    else summary.failed.push({ ...t.cluster, error: o.error });
  });
}

const verbOf = (action: PowerAction) => (action === 'hibernate' ? 'Hibernate' : 'Resume');

/** Keyed by the sweep's job id, so a run of the same job again meets AlreadyExists instead of adding one. */
async function actedEvent(deps: ScheduleServiceDeps, p: SweepPayload, jobId: string, t: SweepTarget): Promise<void> {
  const reason = t.action === 'hibernate' ? 'ScheduledHibernate' : 'ScheduledResume';
  await deps.store.recordEvent('ClusterDeployment', t.cluster, {
    type: 'Normal',
    reason,
    action: verbOf(t.action),
    message: `Schedule ${p.schedule}: ${t.action} (${t.reason})`,
    key: `${jobId}/${reason}`,
  });
}

async function skippedEvent(
  deps: ScheduleServiceDeps,
  p: SweepPayload,
  summary: SweepSummary,
  jobId: string,
  s: { cluster: NamespacedRef; action: PowerAction; reason: string; message: string },
): Promise<void> {
  await deps.store.recordEvent('ClusterDeployment', s.cluster, {
    type: 'Normal',
    reason: 'ScheduleSkipped',
    action: verbOf(s.action),
    message: `Schedule ${p.schedule}: ${s.action} at ${summary.edge.local} skipped (${s.reason}): ${s.message}`,
    key: `${jobId}/ScheduleSkipped`,
  });
}

/** A skip-next-hibernation override that did its one job: the plan sees it used up by that edge; its status says so. */
async function consume(deps: ScheduleServiceDeps, name: string, edgeAt: string): Promise<void> {
  await deps.store
    .mergePatch(
      'ClusterOverride',
      stateRef(deps, name),
      { status: { phase: 'Consumed', consumedEdge: edgeAt, updatedAt: new Date(deps.clock.now()).toISOString() } },
      { subresource: 'status' },
    )
    .catch((err: unknown) => deps.log.warn({ err, override: name }, 'cannot mark override consumed'));
}
