// Which schedule governs a cluster and what it plans for it. A cluster is governed by exactly one schedule: the
// one its opt-in label names, else the single schedule whose targets match. Two matching schedules is a
// conflict that is reported, never guessed.
import {
  isUnclaimedPoolCluster,
  planCluster,
  planInput,
  targetMatch,
  type ClusterFacts,
  type ClusterPlan,
  type PlannerContext,
  type PowerOverride,
} from '../../hive/schedule/index.js';
import type { NamespacedRef } from '../ports.js';
import { compile, installGraceMs, type HibernationSchedule } from './schedule-resource.js';
import { overridesOf, toPowerOverride, type ClusterOverride } from './override-store.js';
import type { ScheduleServiceDeps } from './deps.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { actsOn, clusterTeamOf, ownerTeam, type TeamScope } from '../team-scope.js';

export type StateDeps = Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'> & TeamScope;

export interface Governance {
  schedule?: HibernationSchedule;
  why: string;
  /** Set when the cluster must be left alone whatever the schedule says. */
  excluded?: 'UnclaimedPoolCluster' | 'ScheduleConflict' | 'NotTargeted';
  candidates: string[];
}

export function listSchedules(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
): HibernationSchedule[] {
  return deps.store
    .cachedList<HibernationSchedule>('HibernationSchedule', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((s) => s.object)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/**
 * A team's schedule (label beekeeper.io/team) exists only for its team's clusters: for any other cluster it is not
 * there at all, so it can neither govern it nor make it a conflict (team-scope.ts). Platform-wide ones apply to all.
 */
export function governance(
  scope: TeamScope,
  schedules: HibernationSchedule[],
  hub: string,
  cd: ClusterDeployment,
): Governance {
  return governanceOf(scope, schedules)(hub, cd);
}

/**
 * governance() for many clusters against the same schedules: each team's schedules are picked once, not once per
 * cluster (a sweep asks for every cluster of every hub).
 */
export function governanceOf(
  scope: TeamScope,
  schedules: HibernationSchedule[],
): (hub: string, cd: ClusterDeployment) => Governance {
  const byTeam = new Map<string | undefined, HibernationSchedule[]>();
  return (hub, cd) => {
    const team = clusterTeamOf(scope, hub, cd);
    let mine = byTeam.get(team);
    if (!mine) byTeam.set(team, (mine = schedules.filter((s) => actsOn(ownerTeam(s), team))));
    return governed(mine, hub, cd);
  };
}

/** `schedules`: those of the cluster's team and the platform-wide ones. */
function governed(schedules: HibernationSchedule[], hub: string, cd: ClusterDeployment): Governance {
  const matches = schedules
    .map((s) => ({ s, m: targetMatch(s.metadata.name, s.spec.targets ?? {}, hub, cd) }))
    .filter((x) => x.m.matched);
  const candidates = matches.map((x) => x.s.metadata.name);
  if (isUnclaimedPoolCluster(cd)) {
    return {
      why: `unclaimed cluster of pool ${cd.spec?.clusterPoolRef?.poolName}: Hive's pool controller owns its power state`,
      excluded: 'UnclaimedPoolCluster',
      candidates,
    };
  }
  if (matches.length === 0) return { why: 'no schedule targets this cluster', excluded: 'NotTargeted', candidates };
  if (matches.length > 1) {
    return {
      why: `targeted by ${candidates.join(' and ')}; label the cluster beekeeper.io/hibernation-schedule=<name> to choose one`,
      excluded: 'ScheduleConflict',
      candidates,
    };
  }
  const only = matches[0] as (typeof matches)[number];
  return { schedule: only.s, why: only.m.why, candidates };
}

export function plannerContext(schedule: HibernationSchedule): PlannerContext {
  return { schedule: compile(schedule), installGraceMs: installGraceMs(schedule) };
}

/** What the planner needs to know about one cluster: its ClusterDeployment and its overrides. */
export function clusterFacts(deps: StateDeps, hub: string, cd: ClusterDeployment): ClusterFacts<NamespacedRef> {
  const ref = { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name };
  return { ref, cd, overrides: overridesOf(deps, ref.hub, ref.namespace, ref.name).map(toPowerOverride) };
}

/**
 * The clusters `schedule` plans for, from the informer cache: those it governs, and those its targets select
 * that it must leave alone (marked `excluded`, with the reason).
 */
export function scheduleClusters(
  deps: StateDeps,
  schedule: HibernationSchedule,
  all: HibernationSchedule[],
): Array<ClusterFacts<NamespacedRef>> {
  const name = schedule.metadata.name;
  const out: Array<ClusterFacts<NamespacedRef>> = [];
  const governs = governanceOf(deps, all);
  // Every override read once: looked up per cluster, a sweep of 10,000 clusters listed them 10,000 times.
  const overrides = overrideIndex(deps);
  const facts = (hub: string, cd: ClusterDeployment): ClusterFacts<NamespacedRef> => {
    const ref = { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name };
    return { ref, cd, overrides: overrides.get(clusterKey(ref.hub, ref.namespace, ref.name)) ?? [] };
  };
  // Every hub, not only targets.hubs: the opt-in label wins over the targets (targeting.ts).
  for (const { hub, object: cd } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    const gov = governs(hub, cd);
    if (gov.excluded && gov.excluded !== 'NotTargeted') {
      if (gov.candidates.includes(name))
        out.push({ ...facts(hub, cd), excluded: { reason: gov.excluded, message: gov.why } });
      continue;
    }
    if (gov.schedule?.metadata.name === name) out.push(facts(hub, cd));
  }
  return out;
}

const clusterKey = (hub: string, namespace: string, name: string) => `${hub}\n${namespace}\n${name}`;

/** Every cluster's overrides as the planner takes them, in cache order (as overridesOf gives them). */
function overrideIndex(deps: StateDeps): Map<string, PowerOverride[]> {
  const index = new Map<string, PowerOverride[]>();
  for (const { object: o } of deps.store.cachedList<ClusterOverride>('ClusterOverride', {
    hub: deps.stateHub,
    namespace: deps.stateNamespace,
  })) {
    const c = o.spec?.cluster;
    // As overridesOf: one that names no cluster completely applies to none.
    if (typeof c?.hub !== 'string' || typeof c.namespace !== 'string' || typeof c.name !== 'string') continue;
    const key = clusterKey(c.hub, c.namespace, c.name);
    const list = index.get(key);
    if (list) list.push(toPowerOverride(o));
    else index.set(key, [toPowerOverride(o)]);
  }
  return index;
}

export function planFor(
  deps: StateDeps,
  schedule: HibernationSchedule,
  hub: string,
  cd: ClusterDeployment,
  fromMs: number,
  toMs: number,
): ClusterPlan {
  return planCluster(planInput(plannerContext(schedule), clusterFacts(deps, hub, cd)), fromMs, toMs);
}
