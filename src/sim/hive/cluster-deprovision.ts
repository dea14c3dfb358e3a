import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, A, ann, isDeleting, splitKey } from './context.js';
import { setCondition } from './conditions.js';
import { isTruthy } from './go-values.js';
import type { Stopwatch } from './controller.js';
import { writeStatus } from './writes.js';
import { hiveSettings } from './hive-config.js';

/**
 * The uninstall Job of a ClusterDeprovision. Like Hive it only acts for a deprovision controlled by a CD that is
 * being deleted and is not protected (REFERENCE §7).
 */
export async function reconcileClusterDeprovision(
  ctx: HiveContext,
  watch: Stopwatch,
  key: string,
): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cdr = ctx.informers.clusterDeprovisions.get(ns, name);
  if (!cdr || cdr.status?.completed) return;
  const owner = (cdr.metadata.ownerReferences ?? []).find((o: any) => o.controller && o.kind === 'ClusterDeployment');
  const cd = owner && ctx.informers.clusterDeployments.get(ns, owner.name);
  if (!cd || !isDeleting(cd) || isTruthy(ann(cd, A.protectedDelete))) return;
  if ((await hiveSettings(ctx)).deprovisionsDisabled) return; // HiveConfig deprovisionsDisabled blocks the uninstall Job

  const now = ctx.clock.now();
  let conditions = setCondition(
    cdr.status?.conditions,
    'AuthenticationFailure',
    'False',
    'AuthenticationSucceeded',
    'Platform credentials passed authentication check',
    now,
  );
  const left = ctx.durations.deprovision - watch.elapsed(`deprovision/${cdr.metadata.uid}`, 'running');
  if (left > 0) {
    await writeStatus(ctx, R.clusterDeprovision, cdr, { ...cdr.status, conditions });
    return { requeueAfter: left };
  }
  conditions = setCondition(
    conditions,
    'DeprovisionFailed',
    'False',
    'DeprovisionCompleted',
    'Deprovision completed successfully',
    now,
  );
  await writeStatus(ctx, R.clusterDeprovision, cdr, { ...cdr.status, conditions, completed: true });
}
