// Authorization decisions, free of HTTP: who owns an object (through the TeamDirectory, from the informer cache),
// and whether a caller may see it or act on it. An object the caller may not see is answered exactly as a missing
// one (the `missing` error the service itself throws), so its existence does not leak; one it sees but may not
// change is refused with Forbidden naming the role needed (access.md, "Roles").
import { Forbidden, NotFound } from '../hive/errors.js';
import type { ClusterClaim } from '../hive/pools/types.js';
import type { ClusterDeployment } from '../hive/types.js';
import { refId } from '../hive/object-ref.js';
import type { HiveStore, JobTarget, KubeObject, NamespacedRef } from '../services/ports.js';
import { roleAtLeast, roleIn, type Caller, type Role } from './caller.js';
import type { TeamDirectory } from './team-directory.js';

/** The kinds a `/{hub}/{namespace}/{name}` route addresses. */
export type Owned = 'cluster' | 'pool' | 'claim';

/** The label Beekeeper's own objects (schedules, policies, webhooks, relocations) carry their team in. */
export const TEAM_LABEL = 'beekeeper.io/team';

export interface Ownership {
  store: Pick<HiveStore, 'cached'>;
  teams: TeamDirectory;
}

/**
 * The team owning the object at `ref`, from the cached object when there is one (a pool's cluster belongs to its
 * pool's team), else from its namespace: a request for an object not (yet) in the cache is judged by where it
 * would be, so "missing" and "not yours" cannot be told apart by someone outside that namespace's team.
 */
export function ownerOf(deps: Ownership, kind: Owned, ref: NamespacedRef): string | undefined {
  const { store, teams } = deps;
  if (kind === 'pool') return teams.poolTeam(ref.hub, ref.namespace, ref.name);
  if (kind === 'cluster') {
    const cd = store.cached<ClusterDeployment>('ClusterDeployment', ref);
    return cd ? teams.clusterTeam(ref.hub, cd) : teams.namespaceTeam(ref.hub, ref.namespace);
  }
  const claim = store.cached<ClusterClaim>('ClusterClaim', ref);
  return claim ? teams.claimTeam(ref.hub, claim) : teams.namespaceTeam(ref.hub, ref.namespace);
}

/** What the services answer for a missing object of each kind: the same words for one the caller may not see. */
export function missing(kind: Owned, ref: NamespacedRef): NotFound {
  if (kind === 'cluster')
    return new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
  return new NotFound(`${kind} ${refId(ref)} not found`);
}

/** Whether the caller has any role in the team (platform admins: in every team and in none). */
export const maySee = (caller: Caller, team: string | undefined): boolean => roleIn(caller, team) !== undefined;

/** Whether the caller holds at least `needed` in the team. */
export function mayAct(caller: Caller, team: string | undefined, needed: Role): boolean {
  const held = roleIn(caller, team);
  return held !== undefined && roleAtLeast(held, needed);
}

/**
 * Throws `hidden` when the caller has no role in the team (the object answers as missing), Forbidden when its role
 * is below `needed`.
 */
export function requireRole(caller: Caller, team: string | undefined, needed: Role, hidden: () => Error): void {
  const held = roleIn(caller, team);
  if (held === undefined) throw hidden();
  if (!roleAtLeast(held, needed))
    throw new Forbidden(`this needs the ${needed} role in team ${team}; you have ${held}`);
}

/** A create names its namespace itself, so a refusal may name it too (nothing of another team leaks). */
export function requireCreate(caller: Caller, team: string | undefined, needed: Role, where: string): void {
  if (mayAct(caller, team, needed)) return;
  const held = roleIn(caller, team);
  throw new Forbidden(
    team === undefined
      ? `namespace ${where} belongs to no team: only platform admins create there`
      : held === undefined
        ? `namespace ${where} belongs to team ${team}, which you are not a member of`
        : `creating in namespace ${where} needs the ${needed} role in team ${team}; you have ${held}`,
  );
}

/** Which team a job (an Operation) belongs to: its target's; a target of no team is the platform's. */
export function jobTeam(deps: Ownership, target: JobTarget | undefined): string | undefined {
  if (!target) return undefined;
  const ref = { hub: target.hub, namespace: target.namespace ?? '', name: target.name };
  switch (target.kind) {
    case 'ClusterDeployment':
      return ownerOf(deps, 'cluster', ref);
    case 'ClusterPool':
      return ownerOf(deps, 'pool', ref);
    case 'ClusterClaim':
      return ownerOf(deps, 'claim', ref);
    case 'Namespace':
      return deps.teams.namespaceTeam(target.hub, target.name);
    case 'ClusterOverride': {
      // An override belongs to its cluster's team.
      const cluster = deps.store.cached<KubeObject & { spec?: { cluster?: NamespacedRef } }>(target.kind, ref)?.spec
        ?.cluster;
      return cluster ? ownerOf(deps, 'cluster', cluster) : undefined;
    }
    case 'HibernationSchedule':
    case 'ExpiryPolicy':
    case 'WebhookEndpoint':
    case 'Relocation':
      // Beekeeper's own objects carry their team as a label (set from the creator's team).
      return deps.store.cached<KubeObject>(target.kind, ref)?.metadata.labels?.[TEAM_LABEL];
    default:
      return target.namespace ? deps.teams.namespaceTeam(target.hub, target.namespace) : undefined;
  }
}

/** What one caller may see, for lists (filtered before paging, never refused) and for jobs. */
export interface Visibility {
  /** A platform admin: sees everything, no filter needed. */
  everything: boolean;
  cluster(hub: string, cd: ClusterDeployment): boolean;
  pool(ref: NamespacedRef): boolean;
  claim(hub: string, claim: ClusterClaim): boolean;
  job(target: JobTarget | undefined): boolean;
}

export function visibilityOf(caller: Caller, deps: Ownership): Visibility {
  const sees = (team: string | undefined) => maySee(caller, team);
  return {
    everything: caller.platformAdmin,
    cluster: (hub, cd) => caller.platformAdmin || sees(deps.teams.clusterTeam(hub, cd)),
    pool: (ref) => caller.platformAdmin || sees(deps.teams.poolTeam(ref.hub, ref.namespace, ref.name)),
    claim: (hub, claim) => caller.platformAdmin || sees(deps.teams.claimTeam(hub, claim)),
    job: (target) => caller.platformAdmin || sees(jobTeam(deps, target)),
  };
}
