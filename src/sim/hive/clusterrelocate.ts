import { R, type KubeClient, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, L, ann, clone, isDeleting, splitKey } from './context.js';
import { findCondition, initConditions, setCdConditions, sortCdConditions } from './conditions.js';
import { canonicalJson } from './names.js';
import { isTruthy } from './go-values.js';
import { matchesSelector } from './label-selector.js';
import { copyClusterToDestination } from './relocate-copy.js';
import { writeStatus } from './writes.js';

/**
 * pkg/controller/clusterrelocate: reconciles CDs on both the source and the destination hub (REFERENCE §6), in
 * Reconcile's order. One liberty: setting `outgoing` ends a pass and the next one copies, so other controllers see
 * `outgoing` before the move (Hive does both in one pass).
 */
export async function reconcileClusterRelocate(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  let cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isTruthy(ann(cd, A.reconcilePause))) return;

  const status = clone(cd.status ?? {});
  status.conditions = sortCdConditions(initConditions(status.conditions, ['RelocationFailed'], ctx.clock.now()));
  if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;

  const [relocateName, phase] = splitRelocate(ann(cd, A.relocate));
  // The relocate this CD is under way with; Hive's currentRelocateName.
  let current = phase === 'outgoing' || phase === 'complete' ? relocateName : undefined;

  // Destination side: the copy has arrived, normal management starts (and the pass goes on, as Hive's does).
  if (phase === 'incoming') {
    cd = await setRelocateAnnotation(ctx, cd, undefined);
    current = undefined;
  }

  // Deleting a CD in the middle of a relocation aborts it; Hive counts no abort reason for this one.
  if (isDeleting(cd)) {
    if (phase === 'outgoing') await setRelocateAnnotation(ctx, cd, undefined);
    return;
  }

  // Copied already; finish (again) unless the CD is gone or going. Read live: the cache may not have the deletion
  // this controller made a moment ago, and finishing twice would count the move twice.
  if (phase === 'complete') {
    const live = await ctx.client.tryGet(R.clusterDeployment, ns, name);
    if (!live || isDeleting(live) || ann(live, A.relocate) !== ann(cd, A.relocate)) return;
    return void (await finish(ctx, live, relocateName!));
  }

  const matches = ctx.informers.clusterRelocates
    .list()
    .filter((r) => matchesSelector(r.spec?.clusterDeploymentSelector, cd!.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (matches.length !== 1) {
    // reconcileNoSingleMatch: abort the move under way, set the condition, count the abort. Hive counts it on
    // every such pass, with cluster_relocate="" when nothing was under way.
    if (current) cd = await setRelocateAnnotation(ctx, cd, undefined);
    await setRelocationFailed(
      ctx,
      cd,
      matches.length === 0
        ? ['False', 'NoMatchingRelocates', 'no ClusterRelocates match']
        : [
            'True',
            'MultipleMatchingRelocates',
            `multiple ClusterRelocates match: ${matches.map((m) => m.metadata.name).join(', ')}`,
          ],
    );
    ctx.metrics.abortedClusterRelocations.inc({
      cluster_relocate: current ?? '',
      reason: matches.length === 0 ? 'no_match' : 'multiple_matches',
    });
    return;
  }
  const relocate = matches[0]!;
  if (phase === 'outgoing' && current !== relocate.metadata.name) {
    // A new match aborts the old relocation first, then this pass carries on with the new one.
    cd = await setRelocateAnnotation(ctx, cd, undefined);
    ctx.metrics.abortedClusterRelocations.inc({ cluster_relocate: current ?? '', reason: 'new_match' });
  }

  const ref = relocate.spec?.kubeconfigSecretRef ?? {};
  // Messages as reconcileSingleMatch / checkForExistingClusterDeployment word them (the Get error is Kubernetes').
  const secret = await ctx.client.tryGet(R.secret, ref.namespace, ref.name);
  if (!secret) {
    return void (await setRelocationFailed(ctx, cd, [
      'True',
      'MissingKubeconfigSecret',
      `missing kubeconfig secret for destination cluster: secrets ${JSON.stringify(ref.name ?? '')} not found`,
    ]));
  }
  let dest: KubeClient;
  let existing: Obj | undefined;
  try {
    const kubeconfig = secret.data?.kubeconfig
      ? Buffer.from(secret.data.kubeconfig, 'base64').toString('utf8')
      : undefined;
    if (!kubeconfig) throw new Error('secret does not contain "kubeconfig" data');
    dest = ctx.connect(kubeconfig);
    existing = await dest.tryGet(R.clusterDeployment, ns, name);
  } catch (e) {
    return void (await setRelocationFailed(ctx, cd, [
      'True',
      'NoConnection',
      `could not connect to destination cluster: ${(e as Error).message}`,
    ]));
  }
  if (existing && existing.spec?.baseDomain !== cd.spec?.baseDomain) {
    return void (await setRelocationFailed(ctx, cd, [
      'True',
      'ClusterDeploymentMismatch',
      'The ClusterDeployment in the destination cluster does not match the one being relocated. To relocate this ' +
        'ClusterDeployment, the ClusterDeployment in the destination cluster first must be deleted.',
    ]));
  }

  if (!existing) {
    const outgoing = `${relocate.metadata.name}/outgoing`;
    if (ann(cd, A.relocate) !== outgoing) {
      await setRelocateAnnotation(ctx, cd, outgoing);
      return; // the next pass copies, with provisioning and syncing stopped
    }
    try {
      await copyClusterToDestination(ctx.client, dest, cd, relocate.metadata.name);
    } catch (e) {
      // The annotation stays `outgoing`: the move is held until it succeeds or is aborted.
      return void (await setRelocationFailed(ctx, cd, [
        'True',
        'MoveFailed',
        `failed to move cluster: ${(e as Error).message}`,
      ]));
    }
  }
  await finish(ctx, cd, relocate.metadata.name);
  ctx.log({ hub: ctx.hub, cd: key, relocate: relocate.metadata.name, to: dest.target.server }, 'cluster relocated');
}

/** finishRelocateCompletion: mark complete, condition MoveSuccessful, delete the source CD, count the move. */
async function finish(ctx: HiveContext, cd: Obj, relocateName: string) {
  const completed = await setRelocateAnnotation(ctx, cd, `${relocateName}/complete`);
  await setRelocationFailed(ctx, completed, ['False', 'MoveSuccessful', 'move completed successfully']);
  await ctx.client.delete(R.clusterDeployment, cd.metadata.namespace, cd.metadata.name);
  ctx.metrics.clusterRelocations.inc({ cluster_relocate: relocateName });
}

function splitRelocate(value: string | undefined): [string | undefined, string | undefined] {
  if (!value) return [undefined, undefined];
  const i = value.lastIndexOf('/');
  return [value.slice(0, i), value.slice(i + 1)];
}

/**
 * setRelocationFailedCondition: a True condition is rewritten when its reason or message changes
 * (UpdateConditionIfReasonOrMessageChange); a False one only when the status changes (UpdateConditionNever), so a
 * CD that was False/NoMatchingRelocates keeps that reason through a successful move.
 */
async function setRelocationFailed(
  ctx: HiveContext,
  cd: Obj,
  [status, reason, message]: ['True' | 'False', string, string],
): Promise<Obj> {
  const old = findCondition(cd.status?.conditions, 'RelocationFailed');
  if (status === 'False' && old?.status === 'False') return cd;
  const conditions = setCdConditions(cd.status?.conditions, ctx.clock.now(), [
    'RelocationFailed',
    status,
    reason,
    message,
  ]);
  const next = { ...cd.status, conditions };
  if (canonicalJson(cd.status ?? {}) === canonicalJson(next)) return cd;
  return ctx.client.updateStatus(R.clusterDeployment, { ...cd, status: next });
}

/**
 * Sets (or clears) the relocate annotation on the CD and on its DNSZone, skipping an object already so. Setting
 * `complete` and clearing do the zone first, so a failure there is retried (the CD would look done); `outgoing`
 * does the CD first.
 */
async function setRelocateAnnotation(ctx: HiveContext, cd: Obj, value: string | undefined): Promise<Obj> {
  const ns = cd.metadata.namespace;
  const found = await ctx.client.tryGet(R.dnsZone, ns, `${cd.metadata.name}-zone`).catch(() => undefined);
  const zone = found?.metadata.labels?.[L.cdName] === cd.metadata.name ? found : undefined;
  const updateZone = async () => {
    if (!zone || ann(zone, A.relocate) === value) return;
    await ctx.client.update(R.dnsZone, {
      ...zone,
      metadata: { ...zone.metadata, annotations: withRelocate(zone, value) },
    });
  };
  const updateCd = async () =>
    ann(cd, A.relocate) === value
      ? cd
      : ctx.client.update(R.clusterDeployment, {
          ...cd,
          metadata: { ...cd.metadata, annotations: withRelocate(cd, value) },
        });
  if (value?.endsWith('/outgoing')) {
    const updated = await updateCd();
    await updateZone();
    return updated;
  }
  await updateZone();
  return updateCd();
}

function withRelocate(obj: Obj, value: string | undefined): Record<string, string> {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  if (value === undefined) delete annotations[A.relocate];
  else annotations[A.relocate] = value;
  return annotations;
}
