import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, F, L, ann, clone, hasFinalizer, isDeleting, ownerRef } from './context.js';
import { findCondition, setCdConditions } from './conditions.js';
import { isTruthy } from './go-values.js';
import type { Stopwatch } from './controller.js';
import { ensureCreated, ensureDeleted, removeFinalizer, writeStatus } from './writes.js';

/** syncDeletedClusterDeployment / ensureClusterDeprovisioned (REFERENCE §2.6). */
export async function reconcileDeletedClusterDeployment(
  ctx: HiveContext,
  _watch: Stopwatch,
  cd: Obj,
): Promise<ReconcileResult | void> {
  const ns = cd.metadata.namespace;
  const name = cd.metadata.name;
  if (!hasFinalizer(cd, F.deprovision)) return;
  const relocate = ann(cd, A.relocate);
  if (relocate) {
    // A CD relocated away is deleted without deprovisioning; any other relocate status means wait.
    if (relocate.endsWith('/complete')) await removeFinalizer(ctx, R.clusterDeployment, cd, F.deprovision);
    return;
  }
  if (isTruthy(ann(cd, A.protectedDelete))) {
    ctx.log({ hub: ctx.hub, cd: `${ns}/${name}` }, 'deprovision blocked: protected-delete annotation is set');
    return;
  }

  const running = ctx.informers.clusterProvisions
    .list(ns)
    .filter((p) => p.metadata.labels?.[L.cdName] === name && !['complete', 'failed'].includes(p.spec?.stage));
  if (running.length > 0) {
    for (const p of running) if (!isDeleting(p)) await ensureDeleted(ctx, R.clusterProvision, ns, p.metadata.name);
    return; // the provision's deletion event requeues us
  }

  const p = cd.spec?.platform ?? {};
  const skip = cd.spec?.preserveOnDelete || !cd.spec?.clusterMetadata || p.baremetal || cd.spec?.clusterInstallRef;
  if (skip) {
    await removeFinalizer(ctx, R.clusterDeployment, cd, F.deprovision);
    return;
  }

  const now = ctx.clock.now();
  const status = clone(cd.status ?? {});
  const deprovision = ctx.informers.clusterDeprovisions.get(ns, name);
  if (!deprovision) {
    await ensureCreated(ctx, R.clusterDeprovision, {
      metadata: { name, namespace: ns, labels: { [L.cdName]: name }, ownerReferences: [ownerRef(cd)] },
      spec: deprovisionSpec(cd),
    });
    status.conditions = setCdConditions(status.conditions, now, [
      'Provisioned',
      'False',
      'Deprovisioning',
      'Cluster is being deprovisioned',
    ]);
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return;
  }
  // ensureClusterDeprovisioned: the ClusterDeprovision's AuthenticationFailure is mirrored into
  // DeprovisionLaunchError first (and a True one makes Provisioned DeprovisionFailed), before completion is looked at.
  const auth = findCondition(deprovision.status?.conditions, 'AuthenticationFailure');
  if (auth) {
    const changes: Array<[string, 'True' | 'False' | 'Unknown', string, string]> = [
      ['DeprovisionLaunchError', auth.status, auth.reason ?? '', auth.message ?? ''],
    ];
    if (auth.status === 'True')
      changes.push(['Provisioned', 'False', 'DeprovisionFailed', 'Cluster deprovision failed']);
    status.conditions = setCdConditions(status.conditions, now, ...changes);
    if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;
    if (auth.status === 'True') return;
  }
  if (!deprovision.status?.completed) {
    status.conditions = setCdConditions(status.conditions, now, [
      'Provisioned',
      'False',
      'Deprovisioning',
      'Cluster is deprovisioning',
    ]);
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return;
  }
  status.conditions = setCdConditions(status.conditions, now, [
    'Provisioned',
    'False',
    'Deprovisioned',
    'Cluster is deprovisioned',
  ]);
  if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;
  await removeFinalizer(ctx, R.clusterDeployment, cd, F.deprovision);
  ctx.log({ hub: ctx.hub, cd: `${ns}/${name}` }, 'cluster deprovisioned');
}

function deprovisionSpec(cd: Obj): Record<string, unknown> {
  const p = cd.spec.platform ?? {};
  const platform: Record<string, unknown> = {};
  if (p.aws) platform.aws = { region: p.aws.region, credentialsSecretRef: p.aws.credentialsSecretRef };
  if (p.gcp) platform.gcp = { region: p.gcp.region, credentialsSecretRef: p.gcp.credentialsSecretRef };
  if (p.azure) platform.azure = { credentialsSecretRef: p.azure.credentialsSecretRef, cloudName: p.azure.cloudName };
  if (p.ibmcloud)
    platform.ibmcloud = { region: p.ibmcloud.region, credentialsSecretRef: p.ibmcloud.credentialsSecretRef };
  return {
    infraID: cd.spec.clusterMetadata.infraID,
    clusterID: cd.spec.clusterMetadata.clusterID,
    clusterName: cd.spec.clusterName,
    baseDomain: cd.spec.baseDomain,
    metadataJSONSecretRef: cd.spec.clusterMetadata.metadataJSONSecretRef,
    platform,
  };
}
