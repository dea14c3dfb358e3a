// Where an object lives across Beekeeper's hubs. Every use case addresses Hive objects this way, so a cluster, a
// claim and a pool are the same shape; the name says which kind at the call site, the type says only the address.

/** `{hub}/{namespace}/{name}`; namespace is absent for cluster-scoped kinds. */
export interface ObjectRef {
  hub: string;
  namespace?: string;
  name: string;
}

/** An object of a namespaced kind (ClusterDeployment, ClusterPool, ClusterClaim, Beekeeper's own resources). */
export interface NamespacedRef extends ObjectRef {
  namespace: string;
}

/** `hub/namespace/name`: the id of a namespaced object in Beekeeper's API, its logs and its audit records. */
export const refId = (ref: NamespacedRef): string => `${ref.hub}/${ref.namespace}/${ref.name}`;
