import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, A, ann, isDeleting, splitKey } from './context.js';
import { setCdConditions } from './conditions.js';
import { isTruthy } from './go-values.js';
import { writeStatus } from './writes.js';

// With its machines stopped the spoke's API cannot answer, so Hive reports Unreachable=True while a cluster
// hibernates (docs/troubleshooting.md); fake clusters are never unreachable (REFERENCE §9).
const DOWN = new Set(['WaitingForMachinesToStop', 'Hibernating', 'StartingMachines', 'WaitingForMachines']);

/** pkg/controller/unreachable, reduced to what the simulated spoke can tell: is its API up? */
export async function reconcileUnreachable(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isDeleting(cd) || !cd.spec?.installed || isTruthy(ann(cd, A.reconcilePause))) return;
  const down = DOWN.has(cd.status?.powerState) && !isTruthy(ann(cd, A.fakeCluster));
  const apiURL = cd.status?.apiURL ?? `https://api.${cd.spec.clusterName}.${cd.spec.baseDomain}:6443`;
  const conditions = setCdConditions(
    cd.status?.conditions,
    ctx.clock.now(),
    down
      ? ['Unreachable', 'True', 'ErrorConnectingToCluster', `Get "${apiURL}/api?timeout=32s": dial tcp: i/o timeout`]
      : ['Unreachable', 'False', 'ClusterReachable', 'cluster is reachable'],
  );
  await writeStatus(ctx, R.clusterDeployment, cd, { ...cd.status, conditions });
}
