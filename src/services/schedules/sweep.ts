// The sweep job: one per schedule edge (id `sweep.<schedule>.<edgeEpochMs>`, so replicas collapse onto one). It
// fans out one `schedule.apply` job per cluster on that cluster's hub queue (per-hub concurrency), waits for them
// (event-driven), and ends with a summary that is also recorded on the schedule's status, which is what keeps a
// Redis flush from replaying an edge.
import { NotFound } from '../../hive/errors.js';
import { localIso, type PowerAction } from '../../hive/schedule/index.js';
import type { JobContext, JobHandler, JobView } from '../ports.js';
import { applyPower } from './apply-power.js';
import { listSchedules } from './cluster-schedule.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { applyJobId } from './job-ids.js';
import { overrideName } from './override-store.js';
import { catchUpDeadlineMs, compile, type HibernationSchedule, type SweepRecord } from './schedule-resource.js';
import { planSweep, type ClusterRef, type SweepMode } from './sweep-plan.js';

export const SWEEP_JOB = 'schedule.sweep';
export const APPLY_JOB = 'schedule.apply';

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
  acted: Array<ClusterRef & { action: PowerAction }>;
  skipped: Array<ClusterRef & { reason: string; message: string }>;
  failed: Array<ClusterRef & { error: string }>;
  pending: ClusterRef[];
  counts: { acted: number; skipped: number; failed: number; pending: number };
  skippedReasons: Record<string, number>;
  alreadyDone?: SweepRecord;
  /** Set when the sweep did nothing because its edge was stale. */
  stale?: string;
}

const DEFAULT_WAIT_MS = 10 * 60_000;
/** A sweep starting later than this after its edge is a catch-up. */
const ON_TIME_MS = 60_000;

export function sweepHandler(deps: ScheduleServiceDeps): JobHandler {
  return async (raw, ctx) => runSweep(deps, raw as unknown as SweepPayload, ctx);
}

export async function runSweep(deps: ScheduleServiceDeps, p: SweepPayload, ctx: JobContext): Promise<SweepSummary> {
  const ref = stateRef(deps, p.schedule);
  const schedule = await deps.store.get<HibernationSchedule>('HibernationSchedule', ref);
  if (!schedule) throw new NotFound(`schedule ${p.schedule} no longer exists`);
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
    pending: [],
    counts: { acted: 0, skipped: 0, failed: 0, pending: 0 },
    skippedReasons: {},
  };
  const last = schedule.status?.lastSweep;
  if (p.mode !== 'manual' && last?.finishedAt && last.edge >= p.edgeAt) {
    ctx.log.info({ schedule: p.schedule, edge: p.edgeAt }, 'edge already swept');
    return { ...summary, alreadyDone: last };
  }
  const now = deps.clock.now();
  const startedAt = new Date(now).toISOString();
  let mode = p.mode;
  if (mode !== 'manual') {
    // A sweep that ran late (workers down, queue backed up) must not replay a stale edge: past the deadline it
    // does nothing; within it, it applies the state the schedule says now; after a newer edge it yields to that.
    const latest = compile(schedule).lastEdge(now);
    if (latest && latest.at > p.edgeAt) return { ...summary, stale: `superseded by the edge at ${latest.local}` };
    if (now - edgeMs > catchUpDeadlineMs(schedule)) return { ...summary, stale: `ran ${Math.round((now - edgeMs) / 60_000)} minutes after the edge, beyond catchUpDeadline` };
    if (mode === 'edge' && now - edgeMs > ON_TIME_MS) mode = 'catch-up';
  }
  summary.mode = mode;
  const decisions = planSweep(deps, schedule, listSchedules(deps), { atMs: edgeMs, action: p.action, reason: p.reason }, mode, now);
  await ctx.step('Planned', `${decisions.length} clusters considered`);

  const children: Array<{ cluster: ClusterRef; action: PowerAction; job: Promise<JobView> }> = [];
  for (const d of decisions) {
    if (d.kind === 'skip') {
      summary.skipped.push({ ...d.cluster, reason: d.reason, message: d.message });
      if (!dryRun && d.reason === 'SkipNextHibernationOverride') {
        // The override did its one job; its status says so (the plan would also see it as consumed).
        const name = overrideName(d.cluster.hub, d.cluster.namespace, d.cluster.name, 'skipNextHibernation');
        await deps.store
          .mergePatch('ClusterOverride', stateRef(deps, name), { status: { phase: 'Consumed', consumedEdge: p.edgeAt, updatedAt: startedAt } }, { subresource: 'status' })
          .catch((err: unknown) => ctx.log.warn({ err, override: name }, 'cannot mark override consumed'));
      }
      if (!dryRun && d.reason !== 'UnclaimedPoolCluster') {
        await deps.store.recordEvent('ClusterDeployment', d.cluster, {
          type: 'Normal',
          reason: 'ScheduleSkipped',
          action: d.action === 'hibernate' ? 'Hibernate' : 'Resume',
          message: `Schedule ${p.schedule}: ${d.action} at ${summary.edge.local} skipped (${d.reason}): ${d.message}`,
        });
      }
    } else if (dryRun) summary.acted.push({ ...d.cluster, action: d.action });
    else {
      const payload = { schedule: p.schedule, edgeAt: p.edgeAt, action: d.action, reason: d.reason, ...d.cluster };
      const job = deps.queue.enqueue(APPLY_JOB, payload, {
        jobId: mode === 'manual' ? undefined : applyJobId(p.schedule, edgeMs, d.cluster.hub, d.cluster.namespace, d.cluster.name),
        hub: d.cluster.hub,
        target: { kind: 'ClusterDeployment', ...d.cluster },
      });
      children.push({ cluster: d.cluster, action: d.action, job });
    }
  }
  if (children.length > 0) await ctx.step('FannedOut', `${children.length} cluster jobs`);

  const waitMs = deps.sweepWaitMs ?? DEFAULT_WAIT_MS;
  await Promise.all(
    children.map(async (c) => {
      try {
        const queued = await c.job;
        const done = queued.state === 'completed' || queued.state === 'failed' ? queued : await deps.queue.waitUntilDone(queued.id, waitMs);
        const result = done.result as { outcome?: string; reason?: string; message?: string } | undefined;
        if (done.state === 'failed') summary.failed.push({ ...c.cluster, error: done.error?.message ?? 'failed' });
        else if (done.state !== 'completed') summary.pending.push(c.cluster);
        else if (result?.outcome === 'skipped') summary.skipped.push({ ...c.cluster, reason: result.reason ?? 'Skipped', message: result.message ?? '' });
        else summary.acted.push({ ...c.cluster, action: c.action });
      } catch (err) {
        summary.failed.push({ ...c.cluster, error: err instanceof Error ? err.message : String(err) });
      }
    }),
  );

  for (const s of summary.skipped) summary.skippedReasons[s.reason] = (summary.skippedReasons[s.reason] ?? 0) + 1;
  summary.counts = { acted: summary.acted.length, skipped: summary.skipped.length, failed: summary.failed.length, pending: summary.pending.length };
  await ctx.step('Done', `acted ${summary.counts.acted}, skipped ${summary.counts.skipped}, failed ${summary.counts.failed}`);

  if (mode !== 'manual') {
    const record: SweepRecord = {
      edge: p.edgeAt,
      action: p.action,
      mode,
      jobId: ctx.jobId,
      dryRun,
      startedAt,
      finishedAt: new Date(deps.clock.now()).toISOString(),
      ...summary.counts,
      skippedReasons: summary.skippedReasons,
    };
    await deps.store.mergePatch('HibernationSchedule', ref, { status: { lastSweep: record } }, { subresource: 'status' });
  }
  return summary;
}

export function applyHandler(deps: ScheduleServiceDeps): JobHandler {
  return async (raw) => {
    const p = raw as { schedule: string; action: PowerAction; reason: string; hub: string; namespace: string; name: string };
    return applyPower(deps, { hub: p.hub, namespace: p.namespace, name: p.name }, p.action, { schedule: p.schedule, reason: p.reason });
  };
}
