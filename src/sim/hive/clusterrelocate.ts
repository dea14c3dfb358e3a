import { R, type KubeClient, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, L, ann, clone, isDeleting, splitKey } from './context.js';
import { initConditions, setCdConditions, sortCdConditions } from './conditions.js';
import { isTruthy } from './go-values.js';
import { matchesSelector } from './label-selector.js';
import { copyClusterToDestination } from './relocate-copy.js';
import { writeStatus } from './writes.js';

/** pkg/controller/clusterrelocate: reconciles CDs on both the source and the destination hub (REFERENCE §6). */
export async function reconcileClusterRelocate(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isTruthy(ann(cd, A.reconcilePause))) return;
  const [relocateName, phase] = splitRelocate(ann(cd, A.relocate));

  // Destination side: the copy has arrived, normal management starts.
  if (phase === 'incoming') return void (await setRelocateAnnotation(ctx, cd, undefined));
  if (phase === 'complete') return;

  const status = clone(cd.status ?? {});
  status.conditions = sortCdConditions(initConditions(status.conditions, ['RelocationFailed'], ctx.clock.now()));
  if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;

  // Deleting a CD in the middle of a relocation aborts it.
  if (isDeleting(cd)) {
    if (phase === 'outgoing') await setRelocateAnnotation(ctx, cd, undefined);
    return;
  }

  const matches = ctx.informers.clusterRelocates
    .list()
    .filter((r) => matchesSelector(r.spec?.clusterDeploymentSelector, cd.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (matches.length !== 1) {
    if (phase === 'outgoing') return void (await setRelocateAnnotation(ctx, cd, undefined));
    return void (await fail(
      ctx,
      cd,
      matches.length === 0
        ? ['False', 'NoMatchingRelocates', 'no ClusterRelocates match']
        : [
            'True',
            'MultipleMatchingRelocates',
            `multiple ClusterRelocates match: ${matches.map((m) => m.metadata.name).join(', ')}`,
          ],
    ));
  }
  const relocate = matches[0]!;
  if (phase === 'outgoing' && relocateName !== relocate.metadata.name) {
    return void (await setRelocateAnnotation(ctx, cd, undefined)); // a new match aborts the old relocation first
  }

  const ref = relocate.spec?.kubeconfigSecretRef ?? {};
  // Messages as reconcileSingleMatch / checkForExistingClusterDeployment word them (the Get error is Kubernetes').
  const secret = await ctx.client.tryGet(R.secret, ref.namespace, ref.name);
  if (!secret) {
    return void (await fail(ctx, cd, [
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
    return void (await fail(ctx, cd, [
      'True',
      'NoConnection',
      `could not connect to destination cluster: ${(e as Error).message}`,
    ]));
  }
  if (existing && existing.spec?.baseDomain !== cd.spec?.baseDomain) {
    return void (await fail(ctx, cd, [
      'True',
      'ClusterDeploymentMismatch',
      'The ClusterDeployment in the destination cluster does not match the one being relocated. To relocate this ' +
        'ClusterDeployment, the ClusterDeployment in the destination cluster first must be deleted.',
    ]));
  }

  if (!existing) {
    if (phase !== 'outgoing') {
      await setRelocateAnnotation(ctx, cd, `${relocate.metadata.name}/outgoing`);
      return; // the next pass copies, with provisioning and syncing stopped
    }
    try {
      await copyClusterToDestination(ctx.client, dest, cd, relocate.metadata.name);
    } catch (e) {
      return void (await fail(ctx, cd, ['True', 'MoveFailed', `failed to move cluster: ${(e as Error).message}`]));
    }
  }

  const completed = await setRelocateAnnotation(ctx, cd, `${relocate.metadata.name}/complete`);
  const conditions = setCdConditions(completed.status?.conditions, ctx.clock.now(), [
    'RelocationFailed',
    'False',
    'MoveSuccessful',
    'move completed successfully',
  ]);
  await ctx.client.updateStatus(R.clusterDeployment, { ...completed, status: { ...completed.status, conditions } });
  await ctx.client.delete(R.clusterDeployment, ns, name);
  ctx.log({ hub: ctx.hub, cd: key, relocate: relocate.metadata.name, to: dest.target.server }, 'cluster relocated');
}

function splitRelocate(value: string | undefined): [string | undefined, string | undefined] {
  if (!value) return [undefined, undefined];
  const i = value.lastIndexOf('/');
  return [value.slice(0, i), value.slice(i + 1)];
}

async function fail(ctx: HiveContext, cd: Obj, [status, reason, message]: ['True' | 'False', string, string]) {
  const conditions = setCdConditions(cd.status?.conditions, ctx.clock.now(), [
    'RelocationFailed',
    status,
    reason,
    message,
  ]);
  await writeStatus(ctx, R.clusterDeployment, cd, { ...cd.status, conditions });
}

/** Sets (or clears) the relocate annotation on the CD and on its DNSZone (the zone first, as Hive does). */
async function setRelocateAnnotation(ctx: HiveContext, cd: Obj, value: string | undefined): Promise<Obj> {
  const ns = cd.metadata.namespace;
  const zone = await ctx.client.tryGet(R.dnsZone, ns, `${cd.metadata.name}-zone`).catch(() => undefined);
  if (zone && zone.metadata.labels?.[L.cdName] === cd.metadata.name) {
    await ctx.client.update(R.dnsZone, {
      ...zone,
      metadata: { ...zone.metadata, annotations: withRelocate(zone, value) },
    });
  }
  return ctx.client.update(R.clusterDeployment, {
    ...cd,
    metadata: { ...cd.metadata, annotations: withRelocate(cd, value) },
  });
}

function withRelocate(obj: Obj, value: string | undefined): Record<string, string> {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  if (value === undefined) delete annotations[A.relocate];
  else annotations[A.relocate] = value;
  return annotations;
}
