import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, A, ann, isDeleting, splitKey } from './context.js';
import { isTruthy, toTime } from './go-values.js';
import type { Stopwatch } from './controller.js';
import { ensureCreated, writeStatus } from './writes.js';

/**
 * The clustersync controller's visible effect: a ClusterSync `<ns>/<cd>` once the CD is installed and not paused
 * or relocating, whose `firstSuccessTime` is set after the first apply. The hibernation gate reads it.
 */
export async function reconcileClusterSync(
  ctx: HiveContext,
  watch: Stopwatch,
  key: string,
): Promise<ReconcileResult | void> {
  if (!ctx.informers.clusterSyncs.served()) return;
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isDeleting(cd) || !cd.spec?.installed) return;
  if (isTruthy(ann(cd, A.syncSetPause)) || isTruthy(ann(cd, A.reconcilePause)) || ann(cd, A.relocate)) return;

  const sync = ctx.informers.clusterSyncs.get(ns, name);
  if (!sync) {
    // Non-controller owner reference to the CD, as upstream.
    await ensureCreated(ctx, R.clusterSync, {
      metadata: {
        name,
        namespace: ns,
        ownerReferences: [
          { apiVersion: cd.apiVersion, kind: cd.kind, name, uid: cd.metadata.uid, blockOwnerDeletion: true },
        ],
      },
      spec: {},
    });
    watch.mark(`clustersync/${ns}/${name}`, 'applying');
    return;
  }
  if (sync.status?.firstSuccessTime) return;
  const left = ctx.durations.syncSetApply - watch.elapsed(`clustersync/${ns}/${name}`, 'applying');
  if (left > 0) return { requeueAfter: left };
  await writeStatus(ctx, R.clusterSync, sync, { ...sync.status, firstSuccessTime: toTime(ctx.clock.now()) });
}
