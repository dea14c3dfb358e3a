// Whose an expiring object is, for the team-scoped parts of expiry: a team's ExpiryPolicy covers, and a team's
// WebhookEndpoint hears about, only its own team's clusters and claims (services/team-scope.ts). Read from the
// informer caches and the team directory, never a request per object.
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { listEndpoints } from '../notify/deliver.js';
import type { WebhookEndpoint } from '../notify/webhook-endpoint.js';
import type { HiveStore, StateLocation } from '../ports.js';
import { actsOn, clusterTeamOf, ownerTeam, type TeamScope } from '../team-scope.js';
import type { Expiring } from './targets.js';

type Deps = TeamScope & StateLocation & { store: HiveStore };

/** A claim's team (its pool's when the pool is listed for a team, else its namespace's); a cluster's team. */
export function expiringTeam(deps: Deps, target: Pick<Expiring, 'kind' | 'hub' | 'namespace' | 'name' | 'cluster'>) {
  if (!deps.teams) return undefined;
  if (target.kind === 'ClusterClaim') {
    const claim = deps.store.cached<ClusterClaim>('ClusterClaim', target);
    return claim ? deps.teams.claimTeam(target.hub, claim) : deps.teams.namespaceTeam(target.hub, target.namespace);
  }
  const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', target.cluster);
  return cd ? clusterTeamOf(deps, target.hub, cd) : deps.teams.namespaceTeam(target.hub, target.namespace);
}

/** The enabled endpoints a warning about `target` goes to: platform-wide ones and those of the target's team. */
export function endpointsFor(deps: Deps, target: Expiring): WebhookEndpoint[] {
  const team = expiringTeam(deps, target);
  return listEndpoints(deps).filter((ep) => actsOn(ownerTeam(ep), team));
}
