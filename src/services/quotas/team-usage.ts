// What each team holds now, counted from the informer caches (never a request to a hub per call). A team's
// objects are the directory's (src/auth/team-directory.ts): a cluster or claim belongs to its namespace's team, a
// pool's cluster to its pool's team. Objects being deleted (deletionTimestamp set) no longer count: they are on
// their way out and nobody can use them, and counting them would refuse a replacement for as long as a deprovision
// takes.
import type { TeamDirectory } from '../../auth/team-directory.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore } from '../ports.js';

export interface TeamUsage {
  /** ClusterClaims of the team not being released. */
  claims: number;
  /** ClusterDeployments the team owns, its pools' clusters included. */
  clusters: number;
  /**
   * Of those, the ones whose spec.powerState is not Hibernating: running, asked to run (resuming), or installing
   * (Hive's default power state is Running). A cluster asked to hibernate stops counting at once, before Hive has
   * stopped it; one asked to resume counts at once.
   */
  runningClusters: number;
}

export type CountedQuota = keyof TeamUsage;

export const EMPTY_USAGE: Readonly<TeamUsage> = Object.freeze({ claims: 0, clusters: 0, runningClusters: 0 });

/** A cluster counts as running unless it has been asked to hibernate. */
export const countsAsRunning = (cd: ClusterDeployment): boolean => cd.spec.powerState !== 'Hibernating';

export interface UsageDeps {
  store: Pick<HiveStore, 'cachedList'>;
  teams: TeamDirectory;
}

/** Every team's usage in one pass over the caches (teams holding nothing are absent). */
export function usageByTeam(deps: UsageDeps): Map<string, TeamUsage> {
  const out = new Map<string, TeamUsage>();
  const of = (team: string) => {
    let u = out.get(team);
    if (!u) out.set(team, (u = { ...EMPTY_USAGE }));
    return u;
  };
  for (const { hub, object: cd } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    if (cd.metadata.deletionTimestamp) continue;
    const team = deps.teams.clusterTeam(hub, cd);
    if (team === undefined) continue;
    const u = of(team);
    u.clusters++;
    if (countsAsRunning(cd)) u.runningClusters++;
  }
  for (const { hub, object: claim } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) {
    if (claim.metadata.deletionTimestamp) continue;
    const team = deps.teams.claimTeam(hub, claim);
    if (team !== undefined) of(team).claims++;
  }
  return out;
}

/** One team's usage. */
export const teamUsage = (deps: UsageDeps, team: string): TeamUsage =>
  usageByTeam(deps).get(team) ?? { ...EMPTY_USAGE };
