// "What will happen, and to whom": a schedule's upcoming actions with the clusters each one touches (and those it
// skips, with the reason), and one cluster's own upcoming actions. Both come from the same per-cluster plan the
// sweep uses, so the preview cannot promise what the sweep will not do.
import {
  hibernatingSinceMs,
  installedAtMs,
  longHibernationFlag,
  overridePhase,
  planCluster,
  powerEligibility,
  requestedState,
  type CdLike,
  type Edge,
  type LongHibernationFlag,
} from '../../hive/schedule/index.js';
import type { KubeObject } from '../ports.js';
import { governance, listSchedules, planFor } from './cluster-schedule.js';
import type { ScheduleServiceDeps } from './deps.js';
import { overridesOf, toPowerOverride, type ClusterOverride } from './override-store.js';
import { compile, installGraceMs, scheduleIssues, type HibernationSchedule } from './schedule-resource.js';
import type { ClusterRef } from './sweep-plan.js';

const DAY = 86_400_000;

export interface PreviewEdge extends Edge {
  clusters: ClusterRef[];
  skippedClusters: Array<ClusterRef & { reason: string; message: string }>;
}

export interface SchedulePreview {
  schedule: string;
  timeZone: string;
  from: string;
  to: string;
  edges: PreviewEdge[];
  /** Clusters the targets select that the schedule will never touch, and why. */
  excluded: Array<ClusterRef & { reason: string; message: string }>;
}

export function previewSchedule(deps: ScheduleServiceDeps, schedule: HibernationSchedule, days: number): SchedulePreview {
  const now = deps.clock.now();
  const to = now + days * DAY;
  const name = schedule.metadata.name;
  const byKey = new Map<string, PreviewEdge>();
  const entry = (e: Edge): PreviewEdge => {
    const key = `${e.at}|${e.action}`;
    let found = byKey.get(key);
    if (!found) {
      const { skipped, skipCode, ...rest } = e;
      found = { ...rest, ...(e.skipCode === 'ExceptionDate' ? { skipped, skipCode } : {}), clusters: [], skippedClusters: [] };
      byKey.set(key, found);
    }
    return found;
  };
  for (const e of compile(schedule).edges(now, to, { includeSkipped: true })) entry(e);
  const excluded: SchedulePreview['excluded'] = [];
  const all = listSchedules(deps);
  for (const { hub, object: cd } of deps.store.cachedList<CdLike & KubeObject>('ClusterDeployment')) {
    const cluster = { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name };
    const gov = governance(all, hub, cd);
    if (gov.excluded && gov.excluded !== 'NotTargeted' && gov.candidates.includes(name)) {
      excluded.push({ ...cluster, reason: gov.excluded, message: gov.why });
      continue;
    }
    if (gov.schedule?.metadata.name !== name) continue;
    for (const e of planFor(deps, schedule, hub, cd, now, to).edges) {
      if (e.skipCode === 'ExceptionDate') continue;
      const target = entry(e);
      if (e.skipped) target.skippedClusters.push({ ...cluster, reason: e.skipCode ?? 'Skipped', message: e.skipped });
      else target.clusters.push(cluster);
    }
  }
  const edges = [...byKey.values()].sort((a, b) => a.at.localeCompare(b.at));
  return { schedule: name, timeZone: schedule.spec.timeZone, from: new Date(now).toISOString(), to: new Date(to).toISOString(), edges, excluded };
}

export interface OverrideView {
  name: string;
  type: string;
  from?: string;
  until?: string;
  by: string;
  reason: string;
  phase: string;
}

export interface ClusterScheduleView {
  cluster: ClusterRef;
  schedule?: string;
  why: string;
  excluded?: string;
  powerState: { requested: string; observed?: string };
  desired?: { state: string; reason: string };
  /** Whether a scheduled action could touch the cluster right now, and if not why. */
  actionableNow?: { ok: boolean; reason?: string; message?: string };
  overrides: OverrideView[];
  next: Edge[];
  flags: LongHibernationFlag[];
}

export function overrideViews(deps: ScheduleServiceDeps, schedule: HibernationSchedule | undefined, hub: string, cd: CdLike): OverrideView[] {
  const now = deps.clock.now();
  const crs: ClusterOverride[] = overridesOf(deps, hub, cd.metadata.namespace ?? '', cd.metadata.name);
  const powers = crs.map(toPowerOverride);
  const usable = schedule && scheduleIssues(schedule.spec).length === 0 ? schedule : undefined;
  const plan = usable ? planCluster({ schedule: compile(usable), overrides: powers, installedAtMs: installedAtMs(cd), installGraceMs: installGraceMs(usable) }, now - 1, now) : undefined;
  return crs.map((cr, i) => {
    const o = powers[i] as (typeof powers)[number];
    const phase = plan ? overridePhase(o, plan, now) : o.untilMs !== undefined && now >= o.untilMs ? 'Expired' : (cr.status?.phase ?? 'Active');
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

export function clusterSchedule(deps: ScheduleServiceDeps, hub: string, cd: CdLike, days: number): ClusterScheduleView {
  const now = deps.clock.now();
  const cluster = { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name };
  const gov = governance(listSchedules(deps), hub, cd);
  const flag = gov.schedule?.spec.safety?.ignoreLongHibernation ? undefined : longHibernationFlag(hibernatingSinceMs(cd), now);
  const base: ClusterScheduleView = {
    cluster,
    ...(gov.schedule ? { schedule: gov.schedule.metadata.name } : {}),
    why: gov.why,
    ...(gov.excluded ? { excluded: gov.excluded } : {}),
    powerState: { requested: requestedState(cd), ...(cd.status?.powerState ? { observed: cd.status.powerState } : {}) },
    overrides: overrideViews(deps, gov.schedule, hub, cd),
    next: [],
    flags: flag ? [flag] : [],
  };
  if (!gov.schedule) return base;
  const problems = scheduleIssues(gov.schedule.spec);
  if (problems.length > 0) return { ...base, why: `${gov.why}; but schedule ${gov.schedule.metadata.name} is invalid (${problems.map((p) => p.field).join(', ')}) and does nothing` };
  const plan = planFor(deps, gov.schedule, hub, cd, now, now + days * DAY);
  const current = planFor(deps, gov.schedule, hub, cd, now - 1, now);
  const desiredAction = current.state === 'Hibernating' ? 'hibernate' : 'resume';
  const ok = powerEligibility(cd, desiredAction);
  return {
    ...base,
    desired: { state: current.state, reason: current.reason },
    actionableNow: ok.ok ? { ok: true } : { ok: false, reason: ok.reason, message: ok.message },
    next: plan.edges,
  };
}
