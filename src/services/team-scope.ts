// Team ownership of Beekeeper's own objects on the state hub (HibernationSchedule, ExpiryPolicy, WebhookEndpoint,
// Relocation): the label `beekeeper.io/team=<team>`, set from the creator at creation (docs/team-objects.md). An
// object without it is platform-wide: only platform admins see it, and it acts on every cluster as before teams
// existed. A labelled object is seen by its team's members and acts only on its team's clusters.
import { roleAtLeast, roleIn, type Caller, type Role } from '../auth/caller.js';
import type { TeamDirectory } from '../auth/team-directory.js';
import { Forbidden, NotFound, invalid } from '../hive/errors.js';
import type { ClusterDeployment } from '../hive/types.js';
import type { HiveStore, KubeObject } from './ports.js';

/** The label naming an object's owning team. Fixed, unlike config teamLabel (which names namespaces' teams). */
export const OWNER_TEAM_LABEL = 'beekeeper.io/team';

/** What the engines need to know: which team a cluster belongs to (the directory reads caches, never the API). */
export type ClusterTeams = Pick<TeamDirectory, 'clusterTeam' | 'namespaceTeam' | 'poolTeam' | 'claimTeam'>;

/** Deps of a service or engine that scopes by team; without a directory no cluster belongs to any team. */
export interface TeamScope {
  teams?: ClusterTeams;
}

export const ownerTeam = (obj: Pick<KubeObject, 'metadata'>): string | undefined =>
  obj.metadata.labels?.[OWNER_TEAM_LABEL] || undefined;

/** `{ [OWNER_TEAM_LABEL]: team }`, or nothing for a platform-wide object. */
export const ownerLabels = (team: string | undefined): Record<string, string> =>
  team === undefined ? {} : { [OWNER_TEAM_LABEL]: team };

/**
 * The team of a cluster, or of a cluster about to exist (metadata only: its namespace's team). Pool clusters belong
 * to their pool's team (TeamDirectory.clusterTeam).
 */
export function clusterTeamOf(
  scope: TeamScope,
  hub: string,
  cd: Pick<ClusterDeployment, 'metadata'> & { spec?: ClusterDeployment['spec'] },
): string | undefined {
  if (!scope.teams) return undefined;
  if (cd.spec) return scope.teams.clusterTeam(hub, cd as ClusterDeployment);
  return scope.teams.namespaceTeam(hub, cd.metadata.namespace ?? '');
}

/** Whether an object owned by `owner` (undefined: platform-wide) acts on a cluster of `clusterTeam`. */
export const actsOn = (owner: string | undefined, clusterTeam: string | undefined): boolean =>
  owner === undefined || owner === clusterTeam;

/** Whether the caller sees what `team` owns (undefined: no team, platform admins only). */
export const sees = (caller: Caller, team: string | undefined): boolean => roleIn(caller, team) !== undefined;

/**
 * The object as the caller may see it: another team's (or no team's, for a non-admin) answers exactly as a missing
 * one would (`missing` builds that error), so nothing tells that it exists.
 */
export function visibleOr<T extends Pick<KubeObject, 'metadata'>>(
  caller: Caller,
  obj: T | undefined,
  missing: () => Error,
  teamOf: (o: T) => string | undefined = ownerTeam,
): T {
  if (!obj || !sees(caller, teamOf(obj))) throw missing();
  return obj;
}

/** Throws Forbidden unless the caller holds `needed` in `team` (platform admins hold admin everywhere). */
export function requireRole(caller: Caller, team: string | undefined, needed: Role, doing: string): void {
  const held = roleIn(caller, team);
  if (held !== undefined && roleAtLeast(held, needed)) return;
  const where = team === undefined ? 'a platform admin' : `${needed} in team ${team}`;
  throw new Forbidden(`${doing} needs ${team === undefined ? where : `the role ${where}`}`);
}

/**
 * The team a new object belongs to. `asked`: the request's `team`. A platform admin may name any team, or none
 * (platform-wide). Anyone else gets the one team where they hold `needed`, or names it when they hold it in
 * several; a team they do not belong to is refused naming the field, one where their role is too low is Forbidden.
 */
export function creationTeam(
  caller: Caller,
  asked: string | undefined,
  needed: Role,
  doing: string,
  field = 'team',
): string | undefined {
  if (caller.platformAdmin) return asked;
  const able = caller.grants.filter((g) => roleAtLeast(g.role, needed)).map((g) => g.team);
  if (asked !== undefined) {
    if (!caller.grants.some((g) => g.team === asked))
      throw invalid(
        field,
        `${asked} is not one of your teams (${caller.grants.map((g) => g.team).join(', ') || 'none'})`,
      );
    requireRole(caller, asked, needed, doing);
    return asked;
  }
  if (able.length === 1) return able[0];
  if (able.length === 0) throw new Forbidden(`${doing} needs the role ${needed} in a team; you hold it in none`);
  throw invalid(field, `you are ${needed} in several teams (${able.join(', ')}): name the one that owns it`);
}

/**
 * The owning team a replace (PUT) leaves on the object: the one it has unless `asked` names another, which only a
 * platform admin may do (moving an object between teams changes which clusters it acts on).
 */
export function replacementTeam(
  caller: Caller,
  current: string | undefined,
  asked: string | undefined,
  field = 'team',
): string | undefined {
  if (asked === undefined || asked === current) return current;
  if (!caller.platformAdmin)
    throw new Forbidden(
      `${field}: only a platform admin may change the team that owns an object (it is ${current ?? 'none'})`,
    );
  return asked;
}

/** A missing object's error, the same whether it is missing or another team's. */
export const notFound = (what: string) => () => new NotFound(`${what} not found`);

/**
 * A cluster's team from the informer cache (a cluster not cached yet: its namespace's), checked against the caller:
 * not seen answers as a missing cluster, a lower role than `needed` is Forbidden. Returns the team.
 */
export function requireOnCluster(
  scope: TeamScope & { store: Pick<HiveStore, 'cached'> },
  ref: { hub: string; namespace: string; name: string },
  caller: Caller,
  needed: Role,
  doing: string,
): string | undefined {
  const cd = scope.store.cached<ClusterDeployment>('ClusterDeployment', ref);
  const team = cd ? clusterTeamOf(scope, ref.hub, cd) : scope.teams?.namespaceTeam(ref.hub, ref.namespace);
  if (!sees(caller, team)) throw new NotFound(`cluster ${ref.hub}/${ref.namespace}/${ref.name} not found`);
  requireRole(caller, team, needed, doing);
  return team;
}
