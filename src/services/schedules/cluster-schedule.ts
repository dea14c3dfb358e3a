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
} from '../../hive/schedule/index.js';
import type { NamespacedRef } from '../ports.js';
import { compile, installGraceMs, type HibernationSchedule } from './schedule-resource.js';
import { overridesOf, toPowerOverride } from './override-store.js';
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
  const team = clusterTeamOf(scope, hub, cd);
  const matches = schedules
    .filter((s) => actsOn(ownerTeam(s), team))
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
  // Every hub, not only targets.hubs: the opt-in label wins over the targets (targeting.ts).
  for (const { hub, object: cd } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    const gov = governance(deps, all, hub, cd);
    if (gov.excluded && gov.excluded !== 'NotTargeted') {
      if (gov.candidates.includes(name))
        out.push({ ...clusterFacts(deps, hub, cd), excluded: { reason: gov.excluded, message: gov.why } });
      continue;
    }
    if (gov.schedule?.metadata.name === name) out.push(clusterFacts(deps, hub, cd));
  }
  return out;
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
