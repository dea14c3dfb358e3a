// GET /v1/teams: the teams a caller belongs to (a platform admin: every team), each with what it owns, its quotas
// and what it holds now, read from the informer caches.
import { roleIn, type Caller, type Role } from '../../auth/caller.js';
import type { TeamQuotas } from '../../auth/team-directory.js';
import { NotFound } from '../../hive/errors.js';
import type { ClusterPool } from '../../hive/pools/types.js';
import { EMPTY_USAGE, usageByTeam, type TeamUsage, type UsageDeps } from './team-usage.js';

export interface TeamView {
  name: string;
  /** The caller's role in the team (a platform admin: admin). */
  role: Role;
  /** As configured: `hub/namespace`, or `namespace` on every hub. */
  namespaces: string[];
  /** ClusterPools the team owns (`hub/namespace/name`), in its namespaces or listed for it. */
  pools: string[];
  /** Absent: no limit. */
  quotas: TeamQuotas;
  usage: TeamUsage;
}

type Viewer = Pick<Caller, 'grants' | 'platformAdmin'>;

export function listTeams(deps: UsageDeps, caller: Viewer): TeamView[] {
  const usage = usageByTeam(deps);
  const pools = new Map<string, string[]>();
  for (const { hub, object } of deps.store.cachedList<ClusterPool>('ClusterPool')) {
    const team = deps.teams.poolTeam(hub, object.metadata.namespace!, object.metadata.name);
    if (team === undefined) continue;
    pools.set(team, [...(pools.get(team) ?? []), `${hub}/${object.metadata.namespace}/${object.metadata.name}`]);
  }
  // Teams the configuration names, teams only a grant or an owned object names (a token's team, a namespace label).
  const names = new Set([
    ...deps.teams.teams.map((t) => t.name),
    ...caller.grants.map((g) => g.team),
    ...usage.keys(),
    ...pools.keys(),
  ]);
  const views: TeamView[] = [];
  for (const name of names) {
    const role = roleIn(caller as Caller, name);
    if (!role) continue;
    const configured = deps.teams.teams.find((t) => t.name === name);
    views.push({
      name,
      role,
      namespaces: [...(configured?.namespaces ?? [])],
      pools: (pools.get(name) ?? []).sort(),
      quotas: { ...configured?.quotas },
      usage: usage.get(name) ?? { ...EMPTY_USAGE },
    });
  }
  return views.sort((a, b) => a.name.localeCompare(b.name));
}

/** One team; another team's, or one nobody knows, is the same 404. */
export function getTeam(deps: UsageDeps, caller: Viewer, name: string): TeamView {
  const view = listTeams(deps, caller).find((t) => t.name === name);
  if (!view) throw new NotFound(`team ${name} not found`);
  return view;
}
