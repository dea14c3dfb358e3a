import { R, type ReconcileResult } from '../client/index.js';
import {
  type HiveContext,
  type Obj,
  A,
  F,
  L,
  ann,
  clone,
  hasFinalizer,
  isDeleting,
  splitKey,
  created,
} from './context.js';
import { initConditions, setCdConditions, sortCdConditions } from './conditions.js';
import { platformLabel, regionLabel } from './cd-platform.js';
import { isTruthy, parseGoDuration } from './go-values.js';
import { reconcileDeletedClusterDeployment } from './cd-deletion.js';
import { reconcileProvisioning } from './cd-provisioning.js';
import { addFinalizer, writeObject, writeStatus } from './writes.js';
import type { Stopwatch } from './controller.js';
import { soonest } from './controller.js';
import { clusterUrls } from './cluster-urls.js';

// clusterDeploymentConditions in pkg/controller/clusterdeployment: the conditions this controller initializes.
export const CD_CONTROLLER_CONDITIONS = [
  'DNSNotReady',
  'InstallImagesNotResolved',
  'ProvisionFailed',
  'SyncSetFailed',
  'InstallLaunchError',
  'DeprovisionLaunchError',
  'ProvisionStopped',
  'AuthenticationFailure',
  'RequirementsMet',
  'Provisioned',
  'ClusterInstallFailed',
  'ClusterInstallCompleted',
  'ClusterInstallStopped',
  'ClusterInstallRequirementsMet',
  'InstallerImageResolutionFailed',
];

/** One reconcile of a ClusterDeployment, in the order of REFERENCE §2.4. Each write ends the pass; the watch brings us back. */
export async function reconcileClusterDeployment(
  ctx: HiveContext,
  watch: Stopwatch,
  key: string,
): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd) return;
  if (isTruthy(ann(cd, A.reconcilePause))) return;
  const now = ctx.clock.now();

  const conditions = sortCdConditions(initConditions(cd.status?.conditions, CD_CONTROLLER_CONDITIONS, now));
  if (await writeStatus(ctx, R.clusterDeployment, cd, { ...cd.status, conditions })) return;

  if (await ensurePlatformLabels(ctx, cd)) return;

  if (isDeleting(cd)) return reconcileDeletedClusterDeployment(ctx, watch, cd);

  const expiry = deleteAfterExpiry(ctx, cd);
  if (expiry === 'invalid') return;
  if (expiry !== undefined && expiry <= now) {
    ctx.log(
      { hub: ctx.hub, cd: key, annotation: ann(cd, A.deleteAfter) },
      'delete-after expired, deleting cluster deployment',
    );
    await ctx.client.delete(R.clusterDeployment, ns, name, { resourceVersion: cd.metadata.resourceVersion });
    return;
  }
  const expiryRequeue = expiry === undefined ? undefined : { requeueAfter: expiry - now };

  if (!hasFinalizer(cd, F.deprovision)) {
    await addFinalizer(ctx, R.clusterDeployment, cd, F.deprovision);
    return;
  }

  if (cd.spec?.installed) return soonest(await reconcileInstalled(ctx, cd), expiryRequeue);

  // A CD being relocated away stops provisioning (REFERENCE §6 step 4).
  if ((ann(cd, A.relocate) ?? '').endsWith('/outgoing')) return expiryRequeue;

  return soonest(await reconcileProvisioning(ctx, watch, cd), expiryRequeue);
}

async function ensurePlatformLabels(ctx: HiveContext, cd: Obj): Promise<boolean> {
  const labels = { ...(cd.metadata.labels ?? {}) };
  labels[L.platform] = platformLabel(cd.spec?.platform);
  const region = regionLabel(cd.spec?.platform);
  if (region) labels[L.region] = region;
  return writeObject(ctx, R.clusterDeployment, cd, { ...cd, metadata: { ...cd.metadata, labels } });
}

/** delete-after counts from creationTimestamp (REFERENCE §2.6); a bad value stalls the CD, as in Hive. */
function deleteAfterExpiry(ctx: HiveContext, cd: Obj): number | 'invalid' | undefined {
  const value = ann(cd, A.deleteAfter);
  if (value === undefined) return undefined;
  try {
    return created(cd) + parseGoDuration(value);
  } catch {
    ctx.log(
      { hub: ctx.hub, cd: `${cd.metadata.namespace}/${cd.metadata.name}`, value },
      'unparsable delete-after annotation',
    );
    return 'invalid';
  }
}

/** Step 8 of the reconcile: an installed (or adopted) cluster. */
async function reconcileInstalled(ctx: HiveContext, cd: Obj): Promise<ReconcileResult | void> {
  const now = ctx.clock.now();
  const status = clone(cd.status ?? {});
  // Adopted CDs (installed: true from the start) take their creation time (REFERENCE §2.2).
  status.installedTimestamp ??= cd.metadata.creationTimestamp;
  status.conditions = setCdConditions(
    status.conditions,
    now,
    ['Provisioned', 'True', 'Provisioned', 'Cluster is provisioned'],
    syncSetFailed(ctx, cd),
  );
  const urls = await clusterUrls(ctx, cd);
  status.apiURL = urls.apiURL;
  status.webConsoleURL = urls.webConsoleURL;
  await writeStatus(ctx, R.clusterDeployment, cd, status);
}

/**
 * setSyncSetFailedCondition. Against a server without the ClusterSync kind (a bare API server running only the
 * simulated controllers) there is nothing to wait for, so SyncSets count as applied.
 */
function syncSetFailed(ctx: HiveContext, cd: Obj): [string, 'True' | 'False', string, string] {
  if (!ctx.informers.clusterSyncs.served())
    return ['SyncSetFailed', 'False', 'SyncSetApplySuccess', 'SyncSet apply is successful'];
  const sync = ctx.informers.clusterSyncs.get(cd.metadata.namespace, cd.metadata.name);
  if (!sync) {
    return isTruthy(ann(cd, A.syncSetPause))
      ? ['SyncSetFailed', 'True', 'SyncSetPaused', 'SyncSet is paused. ClusterSync will not be created']
      : ['SyncSetFailed', 'True', 'MissingClusterSync', 'ClusterSync has not yet been created'];
  }
  if (sync.status?.conditions?.some((c: any) => c.type === 'Failed' && c.status === 'True')) {
    return ['SyncSetFailed', 'True', 'SyncSetApplyFailure', 'One of the SyncSet applies has failed'];
  }
  return ['SyncSetFailed', 'False', 'SyncSetApplySuccess', 'SyncSet apply is successful'];
}
