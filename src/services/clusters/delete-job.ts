// cluster.delete: optionally lift delete protection, delete with a uid precondition (never a newer namesake), and
// follow Hive's deprovision (Provisioned=False/Deprovisioning -> Deprovisioned, finalizer removed) until the object
// is gone (REFERENCE.md §2.6).
import { ANNOTATIONS, CONDITIONS } from '../../hive/constants.js';
import { formatGoDuration } from '../../hive/duration.js';
import { Invalid, Unavailable } from '../../hive/errors.js';
import { isTruthy } from '../../hive/go-bool.js';
import { findCondition, type ClusterDeployment } from '../../hive/types.js';
import type { JobContext, ObjectRef } from '../ports.js';
import { audit } from './audit.js';
import { timeoutsOf, type ClusterJobDeps } from './deps.js';
import { createStepRecorder } from './step-recorder.js';

export interface DeletePayload {
  hub: string;
  namespace: string;
  name: string;
  /** The object the caller meant; a re-created namesake is left alone. */
  uid?: string;
  liftProtection?: boolean;
  /**
   * The request deletes the cluster itself (intent first), lifting the protection first when `protectionLifted`;
   * the job reports it. A job that finds the cluster not yet deleting (the request stopped before) deletes it.
   */
  byRequest?: { protectionLifted: boolean };
}

export const protectionLiftedEvent = (jobId: string) => ({
  type: 'Warning' as const,
  reason: 'DeleteProtectionLifted',
  action: 'Delete',
  message: `Beekeeper set ${ANNOTATIONS.protectedDelete}=false to delete this cluster (job ${jobId})`,
  key: `${jobId}/DeleteProtectionLifted`,
});

export const deleteRequestedEvent = (jobId: string) => ({
  type: 'Normal' as const,
  reason: 'DeleteRequested',
  action: 'Delete',
  message: `Beekeeper deleted this ClusterDeployment (job ${jobId})`,
  key: `${jobId}/DeleteRequested`,
});

export interface DeleteResult {
  deleted: true;
  deprovisioned: boolean;
}

const isCode = (err: unknown, code: string) => (err as { code?: string })?.code === code;

export async function runDelete(deps: ClusterJobDeps, p: DeletePayload, ctx: JobContext): Promise<DeleteResult> {
  const { store } = deps;
  const ref: ObjectRef = { hub: p.hub, namespace: p.namespace, name: p.name };
  const steps = createStepRecorder(ctx);

  const cd = await store.get<ClusterDeployment>('ClusterDeployment', ref);
  const missing = !cd || (p.uid !== undefined && cd.metadata.uid !== p.uid);
  // The Events are keyed by the job, so a run after a crash records them once.
  const byRequest = p.byRequest && (missing || cd?.metadata.deletionTimestamp) ? p.byRequest : undefined;
  if (byRequest) {
    if (byRequest.protectionLifted) {
      steps.record('ProtectionLifted', `${ANNOTATIONS.protectedDelete} set to "false" by the request`);
      await audit(store, ctx.log, ref, protectionLiftedEvent(ctx.jobId), { jobId: ctx.jobId });
    }
    steps.record('DeleteRequested', 'deleted by the request');
    await audit(store, ctx.log, ref, deleteRequestedEvent(ctx.jobId), { jobId: ctx.jobId });
  }
  if (!cd || missing) {
    steps.record(byRequest ? 'Deleted' : 'AlreadyDeleted', 'the ClusterDeployment is gone');
    await steps.flush();
    return { deleted: true, deprovisioned: false };
  }

  if (isTruthy(cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]) && !cd.metadata.deletionTimestamp) {
    if (!p.liftProtection) {
      throw Object.assign(
        new Invalid(`deletion is blocked by ${ANNOTATIONS.protectedDelete}; ask again with liftProtection`),
        { reason: 'Protected' },
      );
    }
    // Hive's webhook refuses DELETE while the annotation is truthy; "false" keeps the opt-out explicit (§8).
    await store.mergePatch(
      'ClusterDeployment',
      ref,
      { metadata: { annotations: { [ANNOTATIONS.protectedDelete]: 'false' } } },
      { resourceVersion: cd.metadata.resourceVersion },
    );
    steps.record('ProtectionLifted', `${ANNOTATIONS.protectedDelete} set to "false"`);
    await audit(store, ctx.log, ref, protectionLiftedEvent(ctx.jobId), { jobId: ctx.jobId });
  }

  let deprovisioned = false;
  let last = 'deletion not yet seen';
  const gone = store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    ref,
    (obj) => {
      if (!obj || (cd.metadata.uid && obj.metadata.uid !== cd.metadata.uid)) return true;
      const provisioned = findCondition(obj, CONDITIONS.provisioned);
      if (obj.metadata.deletionTimestamp && provisioned?.reason) {
        if (provisioned.reason === 'Deprovisioned') deprovisioned = true;
        if (['Deprovisioning', 'DeprovisionFailed', 'Deprovisioned'].includes(provisioned.reason)) {
          last = `${provisioned.reason}${provisioned.message ? `: ${provisioned.message}` : ''}`;
          steps.record(provisioned.reason, provisioned.message);
        }
      }
      return undefined;
    },
    { timeoutMs: timeoutsOf(deps).deprovisionMs, signal: ctx.signal },
  );
  gone.catch(() => undefined);

  if (!cd.metadata.deletionTimestamp) {
    // Recorded first, so Hive's deprovision steps (which may arrive before the delete answer) come after it.
    steps.record(
      'DeleteRequested',
      cd.spec.preserveOnDelete
        ? 'preserveOnDelete is set: Hive keeps the cloud resources'
        : 'Hive deprovisions the cloud resources',
    );
    try {
      await store.delete('ClusterDeployment', ref, { uid: cd.metadata.uid, propagation: 'Background' });
      await audit(store, ctx.log, ref, deleteRequestedEvent(ctx.jobId), { jobId: ctx.jobId });
    } catch (err) {
      if (!isCode(err, 'NotFound')) throw err;
    }
  } else if (!byRequest) {
    steps.record('AlreadyDeleting', 'deletion was already under way');
  }

  try {
    await gone.catch((err: unknown) => {
      if (!(err instanceof Unavailable) || ctx.signal.aborted) throw err;
      throw new Unavailable(
        `deprovision not finished after ${formatGoDuration(timeoutsOf(deps).deprovisionMs)}; last seen ${last}`,
        err.retryAfterSeconds,
        { cause: err },
      );
    });
  } finally {
    await steps.flush();
  }
  steps.record('Deleted', 'the ClusterDeployment is gone');
  await steps.flush();
  ctx.log.info(
    { hub: p.hub, namespace: p.namespace, name: p.name, jobId: ctx.jobId, deprovisioned },
    'cluster deleted',
  );
  return { deleted: true, deprovisioned };
}
