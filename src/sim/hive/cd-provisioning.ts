import { createHash } from 'node:crypto';
import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, L, ann, clone, ownerRef } from './context.js';
import { findCondition, setCdConditions } from './conditions.js';
import { toTime } from './go-values.js';
import { rand5 } from './names.js';
import type { Stopwatch } from './controller.js';
import { clusterUrls } from './cluster-urls.js';
import { hiveSettings } from './hive-config.js';
import { updateStatusFresh, writeObject, writeStatus } from './writes.js';

const RECHECK_MS = 2000;
const DAY_IN_MINUTES = 24 * 60; // the backoff cap, in units of provisionRetryBase (1 minute)
const STOPPED_MESSAGE = 'Provisioning failed terminally (see the ProvisionStopped condition for details)';

/** Steps 10-13 of the CD reconcile: image set, requirements, and the ClusterProvision attempts. */
export async function reconcileProvisioning(
  ctx: HiveContext,
  watch: Stopwatch,
  cd: Obj,
): Promise<ReconcileResult | void> {
  const now = ctx.clock.now();
  const status = clone(cd.status ?? {});
  const ns = cd.metadata.namespace;
  const prov = cd.spec.provisioning ?? {};

  let releaseImage: string | undefined = prov.releaseImage;
  if (!releaseImage && prov.imageSetRef?.name) {
    const imageSet = ctx.informers.clusterImageSets.get(undefined, prov.imageSetRef.name);
    if (!imageSet) {
      status.conditions = setCdConditions(status.conditions, now, [
        'RequirementsMet',
        'False',
        'ClusterImageSetNotFound',
        `ClusterImageSet ${prov.imageSetRef.name} is not available`,
      ]);
      await writeStatus(ctx, R.clusterDeployment, cd, status);
      return; // a ClusterImageSet event requeues us
    }
    releaseImage = imageSet.spec?.releaseImage;
  }

  // The imageset Job resolves the installer and CLI images from the release image.
  if (!status.installerImage) {
    const left = ctx.durations.imageSet - watch.elapsed(`imageset/${cd.metadata.uid}`, 'running');
    if (left > 0) return { requeueAfter: left };
    const digest = (component: string) => createHash('sha256').update(`${releaseImage}/${component}`).digest('hex');
    status.installerImage = `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${digest('installer')}`;
    status.cliImage = `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${digest('cli')}`;
    const version = /:(\d+\.\d+\.\d+[^-@]*)/.exec(releaseImage ?? '')?.[1];
    if (version) status.installVersion = version;
    status.conditions = setCdConditions(status.conditions, now, [
      'InstallImagesNotResolved',
      'False',
      'ImagesResolved',
      'Images required for cluster deployment installations are resolved',
    ]);
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return;
  }

  const requirement = await checkInstallConfig(ctx, cd);
  status.conditions = setCdConditions(
    status.conditions,
    now,
    requirement
      ? ['RequirementsMet', 'False', requirement.reason, requirement.message]
      : ['RequirementsMet', 'True', 'AllRequirementsMet', 'All pre-provision requirements met'],
  );
  if (requirement) {
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return { requeueAfter: RECHECK_MS };
  }
  if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;

  const ref = status.provisionRef?.name;
  const provision = ref ? ctx.informers.clusterProvisions.get(ns, ref) : undefined;
  if (ref && !provision) return; // just created: the informer has not seen it yet; its event requeues us
  if (provision) return reconcileExistingProvision(ctx, cd, status, provision);
  // Created by an earlier reconcile whose recording of it failed, and not seen yet: its event requeues us.
  const seen = (name: string) => Boolean(ctx.informers.clusterProvisions.get(ns, name));
  if (!ctx.provisionExpectations.satisfied(`${ns}/${cd.metadata.name}`, seen)) return;
  return startProvision(ctx, cd, status);
}

async function checkInstallConfig(ctx: HiveContext, cd: Obj): Promise<{ reason: string; message: string } | undefined> {
  const name = cd.spec.provisioning?.installConfigSecretRef?.name;
  if (!name) return { reason: 'InstallConfigRefNotSet', message: 'Install config secret reference is not set' };
  const secret = await ctx.client.tryGet(R.secret, cd.metadata.namespace, name);
  if (!secret) return { reason: 'InstallConfigValidationFailed', message: `install config secret ${name} not found` };
  if (!secret.data?.['install-config.yaml'] && !secret.stringData?.['install-config.yaml']) {
    return {
      reason: 'InstallConfigValidationFailed',
      message: `install config secret ${name} has no install-config.yaml key`,
    };
  }
  return undefined;
}

async function startProvision(ctx: HiveContext, cd: Obj, status: Record<string, any>): Promise<ReconcileResult | void> {
  const now = ctx.clock.now();
  if (findCondition(status.conditions, 'ProvisionStopped')?.status === 'True') return;
  const restarts: number = status.installRestarts ?? 0;
  const limit: number | undefined = cd.spec.installAttemptsLimit;
  let stop: [string, string] | undefined;
  // try-install-once is a string comparison with "true", not ParseBool (REFERENCE §2.4).
  if (ann(cd, A.tryInstallOnce) === 'true' && restarts > 0)
    stop = ['InstallOnlyOnceSet', 'Deployment is set to try install only once'];
  else if (limit !== undefined && limit !== null && restarts >= limit)
    stop = ['InstallAttemptsLimitReached', 'Install attempts limit reached'];
  else if (!(await retryAllowed(ctx, cd)))
    stop = ['FailureReasonNotRetryable', 'Provision failure reason not retryable'];
  if (stop) {
    status.conditions = setCdConditions(
      status.conditions,
      now,
      ['ProvisionStopped', 'True', stop[0], stop[1]],
      ['Provisioned', 'False', 'ProvisionStopped', STOPPED_MESSAGE],
    );
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return;
  }

  // A provision for this attempt may exist already if recording it failed last time: adopt it.
  const existing = ctx.informers.clusterProvisions
    .list(cd.metadata.namespace)
    .find((p) => p.metadata.labels?.[L.cdName] === cd.metadata.name && p.spec?.attempt === restarts);
  const name = existing?.metadata.name ?? `${cd.metadata.name}-${restarts}-${rand5()}`;
  const key = `${cd.metadata.namespace}/${cd.metadata.name}`;
  if (!existing) {
    ctx.provisionExpectations.expect(key, name);
    await ctx.client
      .create(R.clusterProvision, {
        metadata: {
          name,
          namespace: cd.metadata.namespace,
          labels: { ...(cd.metadata.labels ?? {}), [L.cdName]: cd.metadata.name },
          ownerReferences: [ownerRef(cd)],
        },
        spec: {
          clusterDeploymentRef: { name: cd.metadata.name },
          attempt: restarts,
          stage: 'initializing',
          // Carried over so a failed install's leftovers can be cleaned up by the next attempt.
          ...previousAttempt(ctx, cd),
          podSpec: { containers: [{ name: 'installer', image: status.installerImage }] },
        },
      })
      .catch((err: unknown) => {
        ctx.provisionExpectations.forget(key);
        throw err;
      });
    ctx.log({ hub: ctx.hub, cd: key, provision: name, attempt: restarts }, 'provision started');
  }
  await updateStatusFresh(ctx, R.clusterDeployment, cd.metadata.namespace, cd.metadata.name, (s) => {
    s.provisionRef = { name };
    s.installStartedTimestamp ??= toTime(now);
    s.conditions = setCdConditions(
      s.conditions,
      now,
      ['Provisioned', 'False', 'Provisioning', 'Cluster provision created'],
      ['ProvisionStopped', 'False', 'ProvisionNotStopped', 'Provision is not stopped'],
    );
  });
  if (existing) ctx.log({ hub: ctx.hub, cd: key, provision: name, attempt: restarts }, 'provision adopted');
}

async function reconcileExistingProvision(
  ctx: HiveContext,
  cd: Obj,
  status: Record<string, any>,
  provision: Obj,
): Promise<ReconcileResult | void> {
  const now = ctx.clock.now();
  const stage = provision.spec?.stage;

  // Hive copies the cluster identity onto the CD as soon as the provision knows its infraID.
  if (provision.spec?.infraID && !cd.spec.clusterMetadata?.infraID) {
    const p = provision.spec;
    const clusterMetadata = {
      ...(cd.spec.clusterMetadata ?? {}),
      clusterID: p.clusterID,
      infraID: p.infraID,
      adminKubeconfigSecretRef: p.adminKubeconfigSecretRef,
      adminPasswordSecretRef: p.adminPasswordSecretRef,
      metadataJSONSecretRef: { name: `${cd.metadata.name}-metadata-json` },
    };
    await writeObject(ctx, R.clusterDeployment, cd, { ...cd, spec: { ...cd.spec, clusterMetadata } });
    return;
  }

  if (stage === 'complete') {
    if (!status.installedTimestamp) {
      status.installedTimestamp = toTime(now);
      Object.assign(status, await clusterUrls(ctx, cd));
      status.conditions = setCdConditions(
        status.conditions,
        now,
        ['ProvisionFailed', 'False', 'ProvisionSucceeded', `Provision ${provision.metadata.name} succeeded.`],
        ['Provisioned', 'True', 'Provisioned', 'Cluster is provisioned'],
      );
      await writeStatus(ctx, R.clusterDeployment, cd, status);
      return;
    }
    const annotations = { ...(cd.metadata.annotations ?? {}) };
    // deleteProtection annotates at install completion, and never overrides a value already there (REFERENCE §8).
    const { deleteProtection } = await hiveSettings(ctx);
    if (deleteProtection && !(A.protectedDelete in annotations)) annotations[A.protectedDelete] = 'true';
    await ctx.client.update(R.clusterDeployment, {
      ...cd,
      metadata: { ...cd.metadata, annotations },
      spec: { ...cd.spec, installed: true },
    });
    ctx.log({ hub: ctx.hub, cd: `${cd.metadata.namespace}/${cd.metadata.name}` }, 'cluster installed');
    return;
  }

  if (stage === 'failed') {
    const failed = findCondition(provision.status?.conditions, 'ClusterProvisionFailed');
    const reason = failed?.status === 'True' ? (failed.reason ?? 'UnknownError') : 'MissingCondition';
    status.conditions = setCdConditions(status.conditions, now, [
      'ProvisionFailed',
      'True',
      reason,
      failed?.status === 'True'
        ? (failed.message ?? '')
        : `Provision ${provision.metadata.name} failed. Next provision will begin soon.`,
    ]);
    if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;
    // Next attempt after 2^installRestarts minutes, capped at 24h, counted from the failure.
    const restarts: number = status.installRestarts ?? 0;
    const failedAt = failed?.lastTransitionTime ? Date.parse(failed.lastTransitionTime) : now;
    const wait = failedAt + ctx.durations.provisionRetryBase * Math.min(2 ** restarts, DAY_IN_MINUTES) - now;
    if (wait > 0) return { requeueAfter: wait };
    status.installRestarts = restarts + 1;
    delete status.provisionRef;
    await writeStatus(ctx, R.clusterDeployment, cd, status);
    return;
  }

  // Still running: the install pod is up once the provision reaches `provisioning`.
  status.conditions =
    stage === 'provisioning'
      ? setCdConditions(
          status.conditions,
          now,
          ['InstallLaunchError', 'False', 'InstallLaunchSuccessful', 'Successfully launched install pod'],
          ['Provisioned', 'False', 'Provisioning', 'Cluster is provisioning'],
        )
      : setCdConditions(status.conditions, now, [
          'Provisioned',
          'False',
          'Provisioning',
          'Cluster provision initializing',
        ]);
  await writeStatus(ctx, R.clusterDeployment, cd, status);
}

/**
 * shouldRetryBasedOnFailureReason: with HiveConfig failedProvisionConfig.retryReasons set, the last failed
 * provision's ClusterProvisionFailed reason must be listed for another attempt. No failure yet: retry.
 */
async function retryAllowed(ctx: HiveContext, cd: Obj): Promise<boolean> {
  const failed = lastFailedProvision(ctx, cd);
  if (!failed) return true;
  const { retryReasons } = await hiveSettings(ctx);
  if (!retryReasons) return true;
  return retryReasons.includes(findCondition(failed.status?.conditions, 'ClusterProvisionFailed')?.reason ?? '');
}

const lastFailedProvision = (ctx: HiveContext, cd: Obj): Obj | undefined =>
  ctx.informers.clusterProvisions
    .list(cd.metadata.namespace)
    .filter((p) => p.metadata.labels?.[L.cdName] === cd.metadata.name && p.spec?.stage === 'failed')
    .sort((a, b) => (a.spec.attempt ?? 0) - (b.spec.attempt ?? 0))
    .at(-1);

/** prevProvisionName/prevClusterID/prevInfraID from the most recent failed attempt, as startNewProvision copies them. */
function previousAttempt(ctx: HiveContext, cd: Obj): Record<string, string> {
  const failed = lastFailedProvision(ctx, cd);
  if (!failed) return {};
  const out: Record<string, string> = { prevProvisionName: failed.metadata.name };
  if (failed.spec.clusterID) out.prevClusterID = failed.spec.clusterID;
  if (failed.spec.infraID) out.prevInfraID = failed.spec.infraID;
  return out;
}
