// Which schedule governs a cluster and what it plans for it. A cluster is governed by exactly one schedule: the
// one its opt-in label names, else the single schedule whose targets match. Two matching schedules is a
// conflict that is reported, never guessed.
import { installedAtMs, isUnclaimedPoolCluster, planCluster, targetMatch, type CdLike, type ClusterPlan } from '../../hive/schedule/index.js';
import { compile, installGraceMs, type HibernationSchedule } from './schedule-resource.js';
import { overridesOf, toPowerOverride } from './override-store.js';
import type { ScheduleServiceDeps } from './deps.js';

export interface Governance {
  schedule?: HibernationSchedule;
  why: string;
  /** Set when the cluster must be left alone whatever the schedule says. */
  excluded?: 'UnclaimedPoolCluster' | 'ScheduleConflict' | 'NotTargeted';
  candidates: string[];
}

export function listSchedules(deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>): HibernationSchedule[] {
  return deps.store
    .cachedList<HibernationSchedule>('HibernationSchedule', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((s) => s.object)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

export function governance(schedules: HibernationSchedule[], hub: string, cd: CdLike): Governance {
  const matches = schedules
    .map((s) => ({ s, m: targetMatch(s.metadata.name, s.spec.targets ?? {}, hub, cd) }))
    .filter((x) => x.m.matched);
  const candidates = matches.map((x) => x.s.metadata.name);
  if (isUnclaimedPoolCluster(cd)) {
    return { why: `unclaimed cluster of pool ${cd.spec?.clusterPoolRef?.poolName}: Hive's pool controller owns its power state`, excluded: 'UnclaimedPoolCluster', candidates };
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

export function planFor(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  schedule: HibernationSchedule,
  hub: string,
  cd: CdLike,
  fromMs: number,
  toMs: number,
): ClusterPlan {
  const overrides = overridesOf(deps, hub, cd.metadata.namespace ?? '', cd.metadata.name).map(toPowerOverride);
  return planCluster({ schedule: compile(schedule), overrides, installedAtMs: installedAtMs(cd), installGraceMs: installGraceMs(schedule) }, fromMs, toMs);
}
