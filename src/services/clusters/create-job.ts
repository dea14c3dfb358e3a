// The cluster.create job: follow Hive until the cluster the request wrote (create-writes.ts) is installed, and
// record its expiry. Queued again from an Operation whose request never wrote, it writes the namespace, the
// install-config Secret and the ClusterDeployment itself; every step is idempotent, so a retry converges.
import { ANNOTATIONS, BEEKEEPER, BEEKEEPER_LABELS, CONDITIONS } from '../../hive/constants.js';
import { readHistory } from '../../hive/expiry/history.js';
import { formatGoDuration } from '../../hive/duration.js';
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from '../../hive/errors.js';
import { lifecyclePhase } from '../../hive/phase.js';
import { findCondition, type ClusterDeployment } from '../../hive/types.js';
import type { HiveStore, JobContext, KindName, KubeObject, ObjectRef } from '../ports.js';
import { writeClusterExpiry } from '../expiry/cluster-expiry-write.js';
import { clusterExpiry } from '../expiry/targets.js';
import { audit } from './audit.js';
import { consoleUrls } from './cluster-summary.js';
import { installConfigSecret, isSecretFor, type CreatePlan } from './build-objects.js';
import { timeoutsOf, type ClusterJobDeps } from './deps.js';
import { createStepRecorder } from './step-recorder.js';

const isCode = (err: unknown, code: string) => (err as { code?: string })?.code === code;

/** Create, or accept an existing object Beekeeper made before (a retried job). */
async function ensure(store: HiveStore, kind: KindName, hub: string, obj: KubeObject): Promise<KubeObject> {
  try {
    return await store.create(kind, hub, obj);
  } catch (err) {
    if (!isCode(err, 'Conflict')) throw err;
    const ref = { hub, namespace: obj.metadata.namespace, name: obj.metadata.name };
    const existing = await store.get(kind, ref);
    if (!existing) throw err;
    if (kind !== 'Namespace' && existing.metadata.labels?.[BEEKEEPER_LABELS.managedBy] !== BEEKEEPER) {
      throw new Conflict(
        `${kind} ${obj.metadata.namespace}/${obj.metadata.name} already exists and was not made by Beekeeper`,
      );
    }
    return existing;
  }
}

/** Errors the worker retries (jobs/outcome.ts): anything but a refusal (Invalid, Forbidden) or a missing target. */
const retried = (err: unknown) => !(err instanceof Invalid || err instanceof Forbidden || err instanceof NotFound);

/**
 * The Secrets a failed create wrote for its cluster (the install-config and the inline credentials), unless the
 * ClusterDeployment exists after all (then it owns them). A Secret someone else wrote under such a name is left
 * alone: only Beekeeper's own for this cluster are removed, each by its uid.
 */
async function removeWrittenSecrets(deps: ClusterJobDeps, plan: CreatePlan, ctx: JobContext): Promise<void> {
  const { store } = deps;
  try {
    if (await store.get('ClusterDeployment', { hub: plan.hub, namespace: plan.namespace, name: plan.name })) return;
    for (const name of plan.ownedSecrets) {
      const ref = { hub: plan.hub, namespace: plan.namespace, name };
      const secret = await store.get('Secret', ref);
      if (!secret || !isSecretFor(secret, plan.name)) continue;
      await store
        .delete('Secret', ref, secret.metadata.uid ? { uid: secret.metadata.uid } : {})
        .catch((err: unknown) => {
          if (!isCode(err, 'NotFound')) throw err;
        });
      ctx.log.info({ secret: name, namespace: plan.namespace }, 'removed a Secret of the failed create');
    }
  } catch (err) {
    ctx.log.warn(
      { err, namespace: plan.namespace, secrets: plan.ownedSecrets },
      'could not remove the Secrets of a failed create',
    );
  }
}

export interface CreateResult {
  installed: boolean;
  phase: string;
  apiURL?: string;
  webConsoleURL?: string;
  /** Deprecated: webConsoleURL under its 0.1 name; removed in 0.2. */
  consoleURL?: string;
}

export async function runCreate(deps: ClusterJobDeps, plan: CreatePlan, ctx: JobContext): Promise<CreateResult> {
  const { store } = deps;
  const ref: ObjectRef = { hub: plan.hub, namespace: plan.namespace, name: plan.name };
  const steps = createStepRecorder(ctx);

  let cd: ClusterDeployment;
  if (plan.uid) {
    // The request wrote everything (create-writes.ts); a cluster deleted since is not made again.
    const found = await store.get<ClusterDeployment>('ClusterDeployment', ref);
    if (!found || found.metadata.uid !== plan.uid) {
      throw Object.assign(
        new Invalid('the ClusterDeployment this request created was deleted before its install finished'),
        { reason: 'Deleted' },
      );
    }
    cd = found;
    if (plan.createNamespace) steps.record('NamespaceReady', `namespace ${plan.namespace}`);
    steps.record('InstallConfigWritten', `Secret ${plan.name}-install-config`);
  } else {
    // Queued from an Operation whose request stopped before its write: the job writes, converging on what exists.
    try {
      if (plan.createNamespace) {
        await ensure(store, 'Namespace', plan.hub, {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: plan.namespace },
        });
        steps.record('NamespaceReady', `namespace ${plan.namespace}`);
      }
      await ensure(store, 'Secret', plan.hub, installConfigSecret(plan));
      steps.record('InstallConfigWritten', `Secret ${plan.name}-install-config`);
      cd = (await ensure(store, 'ClusterDeployment', plan.hub, plan.clusterDeployment)) as ClusterDeployment;
    } catch (err) {
      // A retry needs the Secrets; once no retry follows, the create has failed and takes back what it wrote.
      if (ctx.finalAttempt || !retried(err)) await removeWrittenSecrets(deps, plan, ctx);
      throw err;
    }
  }
  steps.record('ClusterDeploymentCreated', `uid ${cd.metadata.uid ?? '?'}`);
  await audit(
    store,
    ctx.log,
    ref,
    {
      type: 'Normal',
      reason: 'ClusterCreated',
      action: 'Create',
      message: `Beekeeper created this ClusterDeployment (job ${ctx.jobId})`,
      key: `${ctx.jobId}/ClusterCreated`,
    },
    { jobId: ctx.jobId },
  );

  if (!plan.uid) {
    // The CD owns the Secrets made for it, so deleting the cluster cleans them up (garbage collection).
    const owner = {
      apiVersion: cd.apiVersion ?? 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      name: cd.metadata.name,
      uid: cd.metadata.uid!,
      blockOwnerDeletion: false,
    };
    for (const name of plan.ownedSecrets) {
      await store
        .mergePatch(
          'Secret',
          { hub: plan.hub, namespace: plan.namespace, name },
          { metadata: { ownerReferences: [owner] } },
        )
        .catch((err: unknown) => {
          if (!isCode(err, 'NotFound')) throw err;
        });
    }
  }

  if (plan.expiresAt || cd.metadata.annotations?.[ANNOTATIONS.deleteAfter]) {
    // The expiry the cluster is created with is its first recorded expiry change. An absolute one becomes
    // delete-after only now: Hive counts it from creationTimestamp (REFERENCE.md §2.6). A run after a crash finds
    // the history written and leaves it.
    const { cd: written } = await writeClusterExpiry(
      deps,
      ref,
      cd,
      (live) => {
        if (readHistory(live.metadata.annotations).length > 0) return undefined;
        const atMs = plan.expiresAt ? Date.parse(plan.expiresAt) : clusterExpiry(plan.hub, live)?.expiresAtMs;
        return atMs === undefined ? undefined : { atMs, initial: true };
      },
      plan.expiryActor ?? { by: 'unknown', via: 'POST /v1/clusters' },
    );
    steps.record(
      'ExpirySet',
      `${ANNOTATIONS.deleteAfter}=${written.metadata.annotations?.[ANNOTATIONS.deleteAfter] ?? '?'}`,
    );
  }

  let seen = false;
  let last = 'not seen yet';
  const done = await store
    .waitFor<ClusterDeployment, ClusterDeployment>(
      'ClusterDeployment',
      ref,
      (obj) => {
        if (!obj) {
          // Not in the cache yet, right after the create; gone after having been seen means someone deleted it.
          if (seen)
            throw Object.assign(new Invalid('the ClusterDeployment was deleted while provisioning'), {
              reason: 'Deleted',
            });
          return undefined;
        }
        seen = true;
        if (cd.metadata.uid && obj.metadata.uid !== cd.metadata.uid)
          throw new Conflict('the ClusterDeployment was replaced by another object while provisioning');
        const phase = lifecyclePhase(obj);
        last = `${phase.phase}: ${phase.message}`;
        steps.record(phase.phase, phase.message);
        if (obj.spec.installed) return obj;
        const stopped = findCondition(obj, CONDITIONS.provisionStopped);
        if (stopped?.status === 'True') {
          throw Object.assign(
            new Invalid(`Hive stopped provisioning: ${stopped.reason}: ${stopped.message ?? ''}`.trim()),
            { reason: stopped.reason },
          );
        }
        if (obj.metadata.deletionTimestamp)
          throw Object.assign(new Invalid('the ClusterDeployment is being deleted'), { reason: 'Deleted' });
        return undefined;
      },
      { timeoutMs: timeoutsOf(deps).provisionMs, signal: ctx.signal },
    )
    .catch((err: unknown) => {
      if (!(err instanceof Unavailable) || ctx.signal.aborted) throw err;
      throw new Unavailable(
        `install not finished after ${formatGoDuration(timeoutsOf(deps).provisionMs)}; last seen ${last}`,
        err.retryAfterSeconds,
        { cause: err },
      );
    })
    .finally(() => steps.flush());

  await steps.flush();
  return {
    installed: true,
    phase: lifecyclePhase(done).phase,
    ...(done.status?.apiURL ? { apiURL: done.status.apiURL } : {}),
    ...consoleUrls(done),
  };
}
