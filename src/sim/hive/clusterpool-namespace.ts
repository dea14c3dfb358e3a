import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, L, created, isDeleting } from './context.js';
import { isMarkedForRemoval } from './pool-collection.js';
import { ensureDeleted } from './writes.js';

const MIN_AGE_FLOOR_MS = 10_000;

/**
 * pkg/controller/clusterpoolnamespace: a namespace labelled cluster-pool-name is deleted once it holds no CDs and
 * is at least 5 minutes old; while its pool is gone it also deletes CDs marked remove-cluster-from-pool.
 */
export async function reconcilePoolNamespace(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const ns = ctx.informers.namespaces.get(undefined, key);
  const poolName = ns?.metadata.labels?.[L.namespacePool];
  if (!ns || !poolName || isDeleting(ns)) return;
  const cds = ctx.informers.clusterDeployments.list(key);
  if (cds.length > 0) {
    for (const cd of cds) {
      const poolNs = cd.metadata.labels?.[L.poolNamespace];
      const poolGone = poolNs && !ctx.informers.clusterPools.get(poolNs, cd.spec?.clusterPoolRef?.poolName ?? poolName);
      if (poolGone && isMarkedForRemoval(cd) && !isDeleting(cd)) {
        await ensureDeleted(ctx, R.clusterDeployment, key, cd.metadata.name);
      }
    }
    return; // a CD event requeues us
  }
  // The minimum age is what keeps a namespace alive while the pool fills it, so however fast the simulation
  // runs it never drops below the few seconds the pool needs to create the CD.
  const minAge = Math.max(ctx.durations.poolNamespaceMinAge, MIN_AGE_FLOOR_MS);
  const left = created(ns) + minAge - ctx.clock.now();
  if (left > 0) return { requeueAfter: left };
  ctx.log({ hub: ctx.hub, namespace: key }, 'deleting empty pool namespace');
  await ensureDeleted(ctx, R.namespace, undefined, key);
}
