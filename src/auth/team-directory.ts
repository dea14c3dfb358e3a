// Which team owns what on the hubs. Ownership is by namespace, as Kubernetes RBAC and Hive see it: a team owns
// the namespaces the configuration lists for it (`hub/namespace` or `namespace` on every hub) and those whose
// team label (config teamLabel) names it. A ClusterPool's clusters live in namespaces Hive generates, so they
// belong to their pool's team; a pool in a shared namespace may be listed for a team by `hub/namespace/name`.
import type { Config, TeamConfig } from '../config.js';
import { TEAM_NAMESPACE } from '../config/team-schemas.js';
import type { ClusterClaim } from '../hive/pools/types.js';
import type { ClusterDeployment } from '../hive/types.js';

export type TeamQuotas = NonNullable<TeamConfig['quotas']>;

export interface TeamDirectory {
  /** The configuration's teams (teams known only from namespace labels are not listed). */
  readonly teams: readonly TeamConfig[];
  /** The configuration first, then the namespace's team label. */
  namespaceTeam(hub: string, namespace: string): string | undefined;
  /** Listed in a team's `pools`, else its namespace's team. */
  poolTeam(hub: string, namespace: string, name: string): string | undefined;
  /** A pool's cluster: its pool's team; any other: its namespace's. */
  clusterTeam(hub: string, cd: ClusterDeployment): string | undefined;
  /** Its pool's team when the pool is listed for a team (a shared pool namespace), else its namespace's. */
  claimTeam(hub: string, claim: ClusterClaim): string | undefined;
  quotas(team: string): TeamQuotas | undefined;
}

export interface TeamDirectoryDeps {
  config: Pick<Config, 'teams'>;
  /** The value of the team label on a namespace, from a cache (never a request per call). */
  namespaceLabel: (hub: string, namespace: string) => string | undefined;
}

export function createTeamDirectory({ config, namespaceLabel }: TeamDirectoryDeps): TeamDirectory {
  const byHubNamespace = new Map<string, string>();
  const byNamespace = new Map<string, string>();
  const byPool = new Map<string, string>();
  for (const team of config.teams) {
    for (const entry of team.namespaces ?? []) {
      const m = TEAM_NAMESPACE.exec(entry);
      if (!m) continue;
      if (m[1]) byHubNamespace.set(`${m[1]}/${m[3]}`, team.name);
      else byNamespace.set(m[3]!, team.name);
    }
    for (const pool of team.pools ?? []) byPool.set(pool, team.name);
  }
  const namespaceTeam = (hub: string, namespace: string) =>
    byHubNamespace.get(`${hub}/${namespace}`) ?? byNamespace.get(namespace) ?? namespaceLabel(hub, namespace);
  const poolTeam = (hub: string, namespace: string, name: string) =>
    byPool.get(`${hub}/${namespace}/${name}`) ?? namespaceTeam(hub, namespace);
  return {
    teams: config.teams,
    namespaceTeam,
    poolTeam,
    clusterTeam(hub, cd) {
      const pool = cd.spec.clusterPoolRef;
      if (pool?.poolName && pool.namespace) return poolTeam(hub, pool.namespace, pool.poolName);
      return namespaceTeam(hub, cd.metadata.namespace!);
    },
    claimTeam(hub, claim) {
      const ns = claim.metadata.namespace!;
      const pool = claim.spec.clusterPoolName;
      return (pool && byPool.get(`${hub}/${ns}/${pool}`)) ?? namespaceTeam(hub, ns);
    },
    quotas: (team) => config.teams.find((t) => t.name === team)?.quotas,
  };
}

/** The configuration's teams only (no namespace labels): for describing the API and for tests. */
export const configTeamDirectory = (config: Pick<Config, 'teams'>): TeamDirectory =>
  createTeamDirectory({ config, namespaceLabel: () => undefined });
