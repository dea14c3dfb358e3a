// "What will happen, and to whom": a schedule's actions over a range with the clusters each one touches (and those
// it skips, with the reason), what a run now would do, and one cluster's own actions. All come from the planner
// the sweeps use (power-planner.ts, range-plan.ts), so the preview cannot promise what a sweep will not do.
import {
  decide,
  hibernatingSinceMs,
  installedAtMs,
  localIso,
  longHibernationFlag,
  overridePhase,
  planAt,
  planCluster,
  planRange,
  previewRange,
  requestedState,
  type Edge,
  type LongHibernationFlag,
  type PreviewRange,
  type RangeCaps,
  type RangeEdge,
} from '../../hive/schedule/index.js';
import {
  clusterFacts,
  governance,
  listSchedules,
  planFor,
  plannerContext,
  scheduleClusters,
} from './cluster-schedule.js';
import type { ScheduleServiceDeps } from './deps.js';
import { overridesOf, toPowerOverride, type ClusterOverride } from './override-store.js';
import { compile, installGraceMs, scheduleIssues, type HibernationSchedule } from './schedule-resource.js';
import type { NamespacedRef } from '../ports.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { OverrideView } from '../../hive/resources/cluster-override.js';

/** A year of office hours is about 520 edges; a cron acting every half hour reaches the cap in three weeks. */
export const PREVIEW_CAPS: RangeCaps = { maxEdges: 1000, maxClusterEntries: 20_000 };

export type PreviewEdge = RangeEdge<NamespacedRef>;

export interface PreviewQuery {
  /** A date `YYYY-MM-DD` (00:00 in the schedule's zone) or an RFC 3339 instant; now by default. */
  from?: string;
  days?: number;
  /** `false`: each edge gives counts only, no cluster lists, so a large fleet's year fits in one answer. */
  clusters?: boolean;
}

export interface SchedulePreview {
  schedule: string;
  timeZone: string;
  from: string;
  /** End of the range shown (exclusive); when `truncated`, the first edge left out: ask again with `from` = this. */
  to: string;
  truncated: boolean;
  /** What `POST /v1/schedules/{name}/run` (and its dry run) would do now; only when the preview starts now. */
  runNow?: {
    at: string;
    local: string;
    action: string;
    counts: { acted: number; skipped: number };
    clusters: NamespacedRef[];
    skippedClusters: Array<NamespacedRef & { reason: string; message: string }>;
  };
  edges: PreviewEdge[];
  /** Clusters the targets select that the schedule will never touch, and why. */
  excluded: Array<NamespacedRef & { reason: string; message: string }>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function previewSchedule(
  deps: ScheduleServiceDeps,
  schedule: HibernationSchedule,
  query: PreviewQuery,
): SchedulePreview {
  const now = deps.clock.now();
  const zone = schedule.spec.timeZone;
  const range = previewRange(query, zone, now);
  const ctx = plannerContext(schedule);
  const clusters = scheduleClusters(deps, schedule, listSchedules(deps));
  const plan = planRange(ctx, clusters, range.fromMs, range.toMs, {
    ...PREVIEW_CAPS,
    countsOnly: query.clusters === false,
  });
  const excluded = clusters.flatMap((c) => (c.excluded ? [{ ...c.ref, ...c.excluded }] : []));
  let runNow: SchedulePreview['runNow'];
  if (query.from === undefined) {
    const decisions = planAt(ctx, clusters, { kind: 'run', atMs: now });
    const acted = decisions.flatMap((d) => (d.kind === 'act' ? [d.ref] : []));
    const skipped = decisions.flatMap((d) =>
      d.kind === 'skip' ? [{ ...d.ref, reason: d.reason, message: d.message }] : [],
    );
    runNow = {
      at: iso(now),
      local: localIso(now, zone),
      action: ctx.schedule.desiredState(now).state === 'Hibernating' ? 'hibernate' : 'resume',
      counts: { acted: acted.length, skipped: skipped.length },
      clusters: acted,
      skippedClusters: skipped,
    };
  }
  return {
    schedule: schedule.metadata.name,
    timeZone: zone,
    from: iso(range.fromMs),
    to: iso(plan.toMs),
    truncated: plan.truncated,
    ...(runNow ? { runNow } : {}),
    edges: plan.edges,
    excluded,
  };
}

export type { OverrideView };

export interface ClusterScheduleView {
  cluster: NamespacedRef;
  schedule?: string;
  why: string;
  excluded?: string;
  powerState: { requested: string; observed?: string };
  desired?: { state: string; reason: string };
  /** Whether a run of its schedule would touch the cluster right now (the same decision), and if not why. */
  actionableNow?: { ok: boolean; action: string; reason?: string; message?: string };
  overrides: OverrideView[];
  /** The range of `next` (`to` exclusive); `truncated` as for the schedule preview. */
  from: string;
  to: string;
  truncated: boolean;
  next: Edge[];
  flags: LongHibernationFlag[];
}

export function overrideViews(
  deps: ScheduleServiceDeps,
  schedule: HibernationSchedule | undefined,
  hub: string,
  cd: ClusterDeployment,
): OverrideView[] {
  const now = deps.clock.now();
  const crs: ClusterOverride[] = overridesOf(deps, hub, cd.metadata.namespace ?? '', cd.metadata.name);
  const powers = crs.map(toPowerOverride);
  const usable = schedule && scheduleIssues(schedule.spec).length === 0 ? schedule : undefined;
  const plan = usable
    ? planCluster(
        {
          schedule: compile(usable),
          overrides: powers,
          installedAtMs: installedAtMs(cd),
          installGraceMs: installGraceMs(usable),
        },
        now - 1,
        now,
      )
    : undefined;
  return crs.map((cr, i) => {
    const o = powers[i] as (typeof powers)[number];
    const phase = plan
      ? overridePhase(o, plan, now)
      : o.untilMs !== undefined && now >= o.untilMs
        ? 'Expired'
        : (cr.status?.phase ?? 'Active');
    return {
      name: cr.metadata.name,
      type: cr.spec.type,
      ...(cr.spec.from ? { from: cr.spec.from } : {}),
      ...(cr.spec.until ? { until: cr.spec.until } : {}),
      by: cr.spec.by,
      reason: cr.spec.reason,
      phase: cr.status?.phase === 'Consumed' ? 'Consumed' : phase,
    };
  });
}

export function clusterSchedule(
  deps: ScheduleServiceDeps,
  hub: string,
  cd: ClusterDeployment,
  query: PreviewQuery,
): ClusterScheduleView {
  const now = deps.clock.now();
  const facts = clusterFacts(deps, hub, cd);
  const gov = governance(deps, listSchedules(deps), hub, cd);
  const problems = gov.schedule ? scheduleIssues(gov.schedule.spec) : [];
  const usable = gov.schedule && problems.length === 0 ? gov.schedule : undefined;
  // The query is checked even when no schedule applies; a date then means 00:00 UTC.
  const range: PreviewRange = previewRange(query, usable?.spec.timeZone ?? 'UTC', now);
  const flag = gov.schedule?.spec.safety?.ignoreLongHibernation
    ? undefined
    : longHibernationFlag(hibernatingSinceMs(cd), now);
  const base: ClusterScheduleView = {
    cluster: facts.ref,
    ...(gov.schedule ? { schedule: gov.schedule.metadata.name } : {}),
    why: gov.why,
    ...(gov.excluded ? { excluded: gov.excluded } : {}),
    powerState: { requested: requestedState(cd), ...(cd.status?.powerState ? { observed: cd.status.powerState } : {}) },
    overrides: overrideViews(deps, gov.schedule, hub, cd),
    from: iso(range.fromMs),
    to: iso(range.toMs),
    truncated: false,
    next: [],
    flags: flag ? [flag] : [],
  };
  if (!gov.schedule) return base;
  if (!usable)
    return {
      ...base,
      why: `${gov.why}; but schedule ${gov.schedule.metadata.name} is invalid (${problems.map((p) => p.field).join(', ')}) and does nothing`,
    };
  const ctx = plannerContext(usable);
  const plan = planRange(ctx, [facts], range.fromMs, range.toMs, PREVIEW_CAPS);
  const current = planFor(deps, usable, hub, cd, now - 1, now);
  const decision = decide(ctx, facts, { kind: 'run', atMs: now });
  return {
    ...base,
    desired: { state: current.state, reason: current.reason },
    actionableNow:
      decision.kind === 'act'
        ? { ok: true, action: decision.action }
        : { ok: false, action: decision.action, reason: decision.reason, message: decision.message },
    to: iso(plan.toMs),
    truncated: plan.truncated,
    next: plan.edges.map((e) => ownEdge(e)),
  };
}

/** One cluster's view of a preview edge: acted on, skipped for it (with why), or skipped for everyone by date. */
function ownEdge(e: PreviewEdge): Edge {
  const { clusters: _acted, skippedClusters, counts: _counts, ...edge } = e;
  const skip = skippedClusters?.[0];
  return skip ? { ...edge, skipped: skip.message, skipCode: skip.reason as Edge['skipCode'] } : edge;
}
