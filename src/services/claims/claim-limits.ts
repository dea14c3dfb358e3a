// The lifetime limits of claims on a pool: the pool's claimLifetime, the ExpiryPolicies covering the claim (the
// strictest wins, as for clusters), and Beekeeper's fallback where no policy says. Policies match a claim as the
// expiry feature matches clusters: by hub, by the claim's namespace (its pool's), and by labels, here the pool's
// labels and the labels Hive copies onto the pool's clusters (where a team label such as beekeeper.io/team lives).
import { lifetimeLimits, type LifetimeLimits, type LifetimePolicy } from '../../hive/claims/lifetime.js';
import { effectiveLimits, type NamedPolicy } from '../../hive/expiry/index.js';
import type { ClusterPool } from '../../hive/pools/types.js';
import type { HiveStore, NamespacedRef } from '../ports.js';
import { enforcedPolicies } from '../expiry/policy-store.js';
import type { TeamScope } from '../team-scope.js';

/** Used when no ExpiryPolicy gives a limit (documented in docs/pools-claims.md). */
export const FALLBACK_CLAIM_LIFETIME: LifetimePolicy = { defaultLifetime: '4h', maximumLifetime: '72h' };

export interface LimitDeps extends TeamScope {
  /** The ExpiryPolicies in force (dry-run ones excluded). */
  policies: () => NamedPolicy[];
  fallback: LifetimePolicy;
}

/** Where ExpiryPolicies live; without it no policy applies and only the pool and the fallback limit claims. */
export function policySource(deps: {
  store: HiveStore;
  stateHub?: string;
  stateNamespace?: string;
}): () => NamedPolicy[] {
  const { stateHub, stateNamespace } = deps;
  if (!stateHub || !stateNamespace) return () => [];
  return () => enforcedPolicies({ store: deps.store, stateHub, stateNamespace });
}

export function claimLimits(deps: LimitDeps, ref: NamespacedRef, pool: ClusterPool | undefined): LifetimeLimits {
  const labels = { ...pool?.spec.labels, ...pool?.metadata.labels };
  // A team's policy caps its own team's claims only: the pool's team (its namespace's, unless the pool is listed).
  const team = pool
    ? deps.teams?.poolTeam(ref.hub, pool.metadata.namespace ?? ref.namespace, pool.metadata.name)
    : deps.teams?.namespaceTeam(ref.hub, ref.namespace);
  const caps = effectiveLimits(
    deps.policies(),
    ref.hub,
    { metadata: { name: ref.name, namespace: ref.namespace, labels } },
    team,
  );
  return lifetimeLimits(pool?.spec.claimLifetime, caps, deps.fallback);
}
