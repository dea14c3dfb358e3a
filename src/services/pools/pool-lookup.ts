// Reading pools and what belongs to them from the informer cache (never a list call per request).
import { claimQueue } from '../../hive/claims/claim-queue.js';
import { POOL_NAME_LABEL, POOL_NAMESPACE_LABEL } from '../../hive/pools/labels.js';
import type { ClusterClaim, ClusterDeployment, ClusterImageSet, ClusterPool } from '../../hive/pools/types.js';
import { NotFound, invalid } from '../../hive/errors.js';
import type { HiveStore, ObjectRef, NamespacedRef } from '../ports.js';
import { refId } from '../../hive/object-ref.js';

export function cachedPool(store: HiveStore, ref: NamespacedRef): ClusterPool | undefined {
  return store.cached<ClusterPool>('ClusterPool', ref);
}

export function requirePool(store: HiveStore, ref: NamespacedRef): ClusterPool {
  const pool = cachedPool(store, ref);
  if (!pool) throw new NotFound(`pool ${refId(ref)} not found`);
  return pool;
}

/** The pool from the cache, waiting for the informer when the API server already has it (read after create). */
export async function loadPool(store: HiveStore, ref: NamespacedRef): Promise<ClusterPool> {
  const cached = cachedPool(store, ref);
  if (cached) return cached;
  if (!(await store.get<ClusterPool>('ClusterPool', ref))) throw new NotFound(`pool ${refId(ref)} not found`);
  return store.waitFor<ClusterPool, ClusterPool>('ClusterPool', ref, (p) => p, { timeoutMs: 5000 });
}

export function poolClusters(store: HiveStore, ref: NamespacedRef): ClusterDeployment[] {
  return store
    .cachedList<ClusterDeployment>('ClusterDeployment', {
      hub: ref.hub,
      labelSelector: `${POOL_NAME_LABEL}=${ref.name},${POOL_NAMESPACE_LABEL}=${ref.namespace}`,
    })
    .map((e) => e.object);
}

export function poolClaims(store: HiveStore, ref: NamespacedRef): ClusterClaim[] {
  return store
    .cachedList<ClusterClaim>('ClusterClaim', { hub: ref.hub, namespace: ref.namespace })
    .map((e) => e.object)
    .filter((c) => c.spec.clusterPoolName === ref.name);
}

/** The pool's waiting claims in Hive's order; pass the pool's clusters when already read. */
export function poolQueue(
  store: HiveStore,
  ref: NamespacedRef,
  clusters: ClusterDeployment[] = poolClusters(store, ref),
): ClusterClaim[] {
  return claimQueue(poolClaims(store, ref), ref, clusters);
}

export function imageSetOf(store: HiveStore, hub: string, pool: ClusterPool): ClusterImageSet | undefined {
  return store.cached<ClusterImageSet>('ClusterImageSet', {
    hub,
    name: pool.spec.imageSetRef.name,
  } satisfies ObjectRef);
}

/**
 * A pool named by the caller: `hub/namespace/name`, or a shorter `namespace/name` or `name` when exactly one pool
 * across all hubs fits (what a CI user types).
 */
/** `visible`: the pools the caller may see; any other is as absent as a pool that does not exist. */
export function resolvePool(
  store: HiveStore,
  text: string,
  field = 'pool',
  visible?: (ref: NamespacedRef) => boolean,
): NamespacedRef {
  const parts = text.split('/');
  if (parts.length > 3 || parts.some((p) => p === ''))
    throw invalid(field, `"${text}" is not a pool: use hub/namespace/name, namespace/name or name`);
  const [name, namespace, hub] = [...parts].reverse() as [string, string | undefined, string | undefined];
  const matches = store
    .cachedList<ClusterPool>('ClusterPool', hub ? { hub } : {})
    .filter((e) => e.object.metadata.name === name && (!namespace || e.object.metadata.namespace === namespace))
    .filter((e) => !visible || visible({ hub: e.hub, namespace: e.object.metadata.namespace!, name }));
  if (matches.length === 1) return { hub: matches[0]!.hub, namespace: matches[0]!.object.metadata.namespace!, name };
  // A reference in a request body to something that does not exist is an invalid value of that field (422, as
  // an unknown imageSet or Secret is), not a 404: the URL the caller asked for exists.
  if (matches.length === 0) throw invalid(field, `no pool "${text}" on ${hub ? `hub ${hub}` : 'any hub'}`);
  const ids = matches.map((m) => refId({ hub: m.hub, namespace: m.object.metadata.namespace!, name }));
  throw invalid(
    field,
    `"${text}" names ${matches.length} pools (${ids.join(', ')}); say which with hub/namespace/name`,
  );
}
