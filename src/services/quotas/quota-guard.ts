// The team quotas (config teams[].quotas), checked at one point in each use case before anything is written: a
// request that would take its team past a limit is refused with QuotaExceeded (403, with the limit and the current
// use). The team is the target's, from the directory (src/auth/team-directory.ts); an object no team owns, or a
// team without quotas, has no limit. Platform admins are held to a team's quota too: the quota is the team's, not
// the caller's.
//
// Counts come from the informer caches (team-usage.ts), so two requests at the same moment (or on two API
// replicas) can both pass and take a team over its limit by one each; the next request after the caches have seen
// them is refused. Hive has no quota of its own to write (nothing to enforce atomically), and a per-process lock
// would not cover replicas, so a small overshoot is accepted (docs/quotas.md, "Races").
import type { TeamDirectory, TeamQuotas } from '../../auth/team-directory.js';
import { formatDuration } from '../../hive/claims/duration.js';
import { ANNOTATIONS } from '../../hive/constants.js';
import { parseGoDuration } from '../../hive/duration.js';
import { QuotaExceeded, type QuotaDetails } from '../../hive/errors.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { refId } from '../../hive/object-ref.js';
import type { HiveStore, NamespacedRef } from '../ports.js';
import { poolFootprint, type PoolShape } from './pool-footprint.js';
import { countsAsRunning, teamUsage, type CountedQuota, type TeamUsage } from './team-usage.js';

const HOUR = 3600_000;

const WORDS: Record<CountedQuota, [one: string, many: string]> = {
  claims: ['claim', 'claims'],
  clusters: ['cluster', 'clusters'],
  runningClusters: ['running cluster', 'running clusters'],
};
const counted = (n: number, q: CountedQuota) => `${n} ${WORDS[q][n === 1 ? 0 : 1]}`;

export interface QuotaGuard {
  /**
   * POST /v1/clusters: one more cluster, one more running unless it is created hibernating, and its expiry
   * (`lifetimeMs` from now) within maxLifetimeHours.
   */
  admitCluster(ref: NamespacedRef, opts: { running: boolean; lifetimeMs?: number }): void;
  /** POST .../resume: one more running cluster (none if it already counts as running). */
  admitResume(hub: string, cd: ClusterDeployment): void;
  /** POST /v1/claims: one more claim, living at most maxLifetimeHours. */
  admitClaim(hub: string, pool: NamespacedRef, lifetimeMs: number): void;
  /** PATCH /v1/claims/{id}: the new total lifetime (counted from the claim, as Hive counts it). */
  admitClaimLifetime(hub: string, claim: ClusterClaim, lifetimeMs: number): void;
  /**
   * PUT .../expiry: the expiry's distance from the cluster's creation; null (no expiry) is beyond any cap. An
   * expiry no later than the one in force is always allowed.
   */
  admitClusterLifetime(hub: string, cd: ClusterDeployment, lifetimeMs: number | null): void;
  /** POST /v1/pools (before undefined) and PATCH: the growth of the clusters the pool makes Hive hold. */
  admitPool(ref: NamespacedRef, before: PoolShape | undefined, after: PoolShape): void;
  /** The longest lifetime the team of a new cluster in `namespace` may give, if its quota sets one. */
  clusterMaxLifetimeMs(hub: string, namespace: string): number | undefined;
  /** The longest lifetime a claim on `pool` may have, if its team's quota sets one. */
  claimMaxLifetimeMs(hub: string, pool: NamespacedRef): number | undefined;
}

export interface QuotaGuardDeps {
  store: Pick<HiveStore, 'cachedList'>;
  teams: TeamDirectory;
}

/** The claim a request would create on `pool`, as far as the directory needs it to name the team. */
const claimOn = (pool: NamespacedRef): ClusterClaim => ({
  metadata: { name: '', namespace: pool.namespace },
  spec: { clusterPoolName: pool.name },
});

export function createQuotaGuard(deps: QuotaGuardDeps): QuotaGuard {
  const { teams } = deps;
  const quotasOf = (team: string | undefined): (TeamQuotas & { team: string }) | undefined => {
    const q = team === undefined ? undefined : teams.quotas(team);
    return q && team !== undefined ? { ...q, team } : undefined;
  };

  const refuse = (details: QuotaDetails, detail: string): never => {
    throw new QuotaExceeded(detail, details);
  };

  /** Refuses when `adds` of quota `q` would take the team past its limit. `what` names the request. */
  const admitCount = (team: string | undefined, adds: Partial<TeamUsage>, what: string, usage?: TeamUsage): void => {
    const quotas = quotasOf(team);
    if (!quotas) return;
    const now = usage ?? teamUsage(deps, quotas.team);
    for (const q of ['claims', 'clusters', 'runningClusters'] as const) {
      const add = adds[q] ?? 0;
      const limit = quotas[q];
      if (add <= 0 || limit === undefined || now[q] + add <= limit) continue;
      refuse(
        { team: quotas.team, quota: q, limit, current: now[q], requested: add },
        `team ${quotas.team} has ${counted(now[q], q)} of its quota of ${limit}; ${what} would add ` +
          `${add} more (quota ${q}). Release or delete some first, or ask a platform admin for a larger quota.`,
      );
    }
  };

  const maxLifetimeMs = (team: string | undefined) => {
    const hours = quotasOf(team)?.maxLifetimeHours;
    return hours === undefined ? undefined : hours * HOUR;
  };

  const admitLifetime = (team: string | undefined, ms: number | null, what: string, counted: string) => {
    const quotas = quotasOf(team);
    const limit = quotas?.maxLifetimeHours;
    if (!quotas || limit === undefined) return;
    if (ms !== null && ms <= limit * HOUR) return;
    const hours = ms === null ? Number.POSITIVE_INFINITY : Math.round((ms / HOUR) * 100) / 100;
    refuse(
      // JSON has no infinity: "no expiry at all" reports 0 with words saying why.
      { team: quotas.team, quota: 'maxLifetimeHours', limit, current: Number.isFinite(hours) ? hours : 0 },
      ms === null
        ? `team ${quotas.team} may keep a cluster at most ${limit}h (quota maxLifetimeHours); ${what} would leave it without an expiry`
        : `team ${quotas.team} may keep ${counted} at most ${limit}h (quota maxLifetimeHours); ${what} asks for ` +
            `${formatDuration(ms)}`,
    );
  };

  return {
    admitCluster(ref, { running, lifetimeMs }) {
      const team = teams.namespaceTeam(ref.hub, ref.namespace);
      admitCount(team, { clusters: 1, runningClusters: running ? 1 : 0 }, `creating cluster ${refId(ref)}`);
      if (lifetimeMs !== undefined) admitLifetime(team, lifetimeMs, `cluster ${refId(ref)}`, 'a cluster');
    },
    admitResume(hub, cd) {
      if (countsAsRunning(cd)) return;
      admitCount(
        teams.clusterTeam(hub, cd),
        { runningClusters: 1 },
        `resuming cluster ${hub}/${cd.metadata.namespace}/${cd.metadata.name}`,
      );
    },
    admitClaim(hub, pool, lifetimeMs) {
      const team = teams.claimTeam(hub, claimOn(pool));
      admitCount(team, { claims: 1 }, `a claim on pool ${refId(pool)}`);
      admitLifetime(team, lifetimeMs, 'this claim', 'a claim');
    },
    admitClaimLifetime(hub, claim, lifetimeMs) {
      admitLifetime(
        teams.claimTeam(hub, claim),
        lifetimeMs,
        `extending claim ${hub}/${claim.metadata.namespace}/${claim.metadata.name}`,
        'a claim',
      );
    },
    admitClusterLifetime(hub, cd, lifetimeMs) {
      // Moving an expiry earlier is always allowed, so a cluster older than the quota (created before it, or by
      // a platform admin's exception) can still be given a nearer end.
      const current = parseGoDuration(cd.metadata.annotations?.[ANNOTATIONS.deleteAfter] ?? '');
      if (lifetimeMs !== null && current !== undefined && lifetimeMs <= current) return;
      admitLifetime(
        teams.clusterTeam(hub, cd),
        lifetimeMs,
        `this expiry of cluster ${hub}/${cd.metadata.namespace}/${cd.metadata.name}`,
        'a cluster (counted from its creation)',
      );
    },
    admitPool(ref, before, after) {
      const team = teams.poolTeam(ref.hub, ref.namespace, ref.name);
      const quotas = quotasOf(team);
      if (quotas?.clusters === undefined) return;
      const mine = deps.store
        .cachedList<ClusterDeployment>('ClusterDeployment', { hub: ref.hub })
        .map((e) => e.object)
        .filter(
          (cd) =>
            !cd.metadata.deletionTimestamp &&
            cd.spec.clusterPoolRef?.namespace === ref.namespace &&
            cd.spec.clusterPoolRef.poolName === ref.name,
        );
      const claimed = mine.filter((cd) => cd.spec.clusterPoolRef?.claimName).length;
      const from = before ? poolFootprint(before, claimed) : 0;
      const to = poolFootprint(after, claimed);
      if (to <= from) return;
      // What the team would hold once Hive has filled the pool: its other clusters and the pool's new footprint.
      const usage = teamUsage(deps, quotas.team);
      const others = usage.clusters - mine.length;
      const limit = quotas.clusters;
      if (others + to <= limit) return;
      const shape =
        `size ${after.size}${claimed ? ` + ${claimed} claimed` : ''}` +
        (after.maxSize !== undefined ? `, maxSize ${after.maxSize}` : '');
      refuse(
        { team: quotas.team, quota: 'clusters', limit, current: usage.clusters, requested: to - from },
        `pool ${refId(ref)} would make Hive hold ${counted(to, 'clusters')} (${shape}); with the team's ` +
          `${counted(others, 'clusters')} outside this pool, team ${quotas.team} would hold ${others + to}, over its ` +
          `quota of ${limit} (quota clusters). Ask for a smaller size or maxSize, or free clusters first.`,
      );
    },
    clusterMaxLifetimeMs: (hub, namespace) => maxLifetimeMs(teams.namespaceTeam(hub, namespace)),
    claimMaxLifetimeMs: (hub, pool) => maxLifetimeMs(teams.claimTeam(hub, claimOn(pool))),
  };
}
