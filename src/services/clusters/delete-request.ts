// A delete request: refused while the cluster is moving between hubs or protected (unless the caller lifts the
// protection), then accepted through an Operation whose write lifts the protection if asked and deletes the
// ClusterDeployment before the answer goes out; the deprovision is followed by the delete job (delete-job.ts).
import { ANNOTATIONS } from '../../hive/constants.js';
import { Conflict, NotFound } from '../../hive/errors.js';
import { isTruthy } from '../../hive/go-bool.js';
import { relocatingMessage } from '../../hive/relocation-marks.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { jobOf } from '../job-definition.js';
import type { Operations } from '../operations/operations.js';
import { targetOf, type Requester } from '../operations/operation.js';
import type { JobView, NamespacedRef } from '../ports.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { DELETE_JOB } from './cluster-jobs.js';
import type { DeletePayload } from './delete-job.js';
import type { ClusterServiceDeps } from './deps.js';

export interface DeleteOptions {
  liftProtection?: boolean;
  requester?: Requester;
}

export async function requestDelete(
  deps: Pick<ClusterServiceDeps, 'store' | 'log'> & { operations: Operations },
  ref: NamespacedRef,
  cd: ClusterDeployment,
  opts: DeleteOptions,
): Promise<JobView> {
  const { store, log, operations } = deps;
  // Deleting a CD mid-move aborts the move and then deprovisions the cluster the normal way, though parts of it
  // may already be on the destination (REFERENCE.md §6): refused until the relocation is over or aborted.
  const relocating = cd.metadata.deletionTimestamp ? undefined : relocatingMessage(cd);
  if (relocating)
    throw new Conflict(`ClusterDeployment ${ref.namespace}/${ref.name} cannot be deleted now: ${relocating}`);
  const protectedDelete = isTruthy(cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]);
  if (protectedDelete && !cd.metadata.deletionTimestamp && !opts.liftProtection) {
    throw new Conflict(
      `ClusterDeployment ${ref.namespace}/${ref.name} is protected by ` +
        `${ANNOTATIONS.protectedDelete}=${cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]}; ` +
        'repeat with liftProtection=true to lift the protection and delete it',
    );
  }
  const uid = cd.metadata.uid;
  const lift = protectedDelete && !cd.metadata.deletionTimestamp;
  const payload: DeletePayload = {
    ...ref,
    ...(uid ? { uid } : {}),
    ...(opts.liftProtection ? { liftProtection: true } : {}),
    ...(cd.metadata.deletionTimestamp ? {} : { byRequest: { protectionLifted: lift } }),
  };
  const job = await operations.accept({
    ...jobOf(DELETE_JOB, payload),
    target: targetOf('ClusterDeployment', ref, uid),
    ...(opts.requester ? { requester: opts.requester } : {}),
    against: (other) => (other.spec.type === DELETE_JOB.type ? 'join' : undefined),
    write: async () => {
      if (cd.metadata.deletionTimestamp) return;
      const lifted = await retryOnConflict(async () => {
        // Live, for the version: the cache may be a step behind Hive's own status writes.
        const live = await store.get<ClusterDeployment>('ClusterDeployment', ref);
        if (!live || (uid && live.metadata.uid !== uid) || live.metadata.deletionTimestamp) return false;
        if (!lift || !isTruthy(live.metadata.annotations?.[ANNOTATIONS.protectedDelete])) return true;
        // Hive's webhook refuses DELETE while the annotation is truthy; "false" keeps the opt-out explicit
        // (§8). Conditional on the version just judged; Hive's controllers write the object often (status,
        // version labels), so a conflict is read again and judged again, not handed to the caller.
        await store.mergePatch(
          'ClusterDeployment',
          ref,
          { metadata: { annotations: { [ANNOTATIONS.protectedDelete]: 'false' } } },
          { resourceVersion: live.metadata.resourceVersion },
        );
        return true;
      });
      if (!lifted) return;
      await store
        .delete('ClusterDeployment', ref, { ...(uid ? { uid } : {}), propagation: 'Background' })
        .catch((err: unknown) => {
          if (!(err instanceof NotFound)) throw err;
        });
    },
  });
  log.info(
    { ...ref, jobId: job.id, liftProtection: opts.liftProtection === true },
    'cluster deleted; deprovision is followed by a job',
  );
  return job;
}
