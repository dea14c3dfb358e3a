// The Operations repairer, for the periodic resync (scheduler role): compares each Operation with what Redis
// holds and repairs the difference, whatever Redis lost.
// - unfinished, and Redis has no job of its name: the job is queued again under the same id (handlers converge,
//   and the up-front write already happened, so the job only follows and reports);
// - unfinished, but its job has ended in Redis: the end is recorded on the Operation (the worker's write was lost);
// - finished longer ago than the job history keeps jobs (jobs.keepCompleted/FailedSeconds): deleted.
import type { JobsConfig } from '../../config.js';
import { Unavailable } from '../../hive/errors.js';
import type { Clock, HiveStore, JobQueue, JobView, ObjectRef, ServiceLog, StateLocation } from '../ports.js';
import { jobIds } from '../job-ids.js';
import { keptJob } from '../job-definition.js';
import { isFinished, jobTarget, operationRef, type Operation } from './operation.js';
import { endStatus } from './record-outcome.js';

export interface OperationRepair {
  repair: 'operation-requeued' | 'operation-end-recorded' | 'operation-deleted';
  ref: ObjectRef & { kind: 'Operation' };
  detail: string;
}

export interface RepairOperationsDeps extends StateLocation {
  store: HiveStore;
  /** The job queue in Redis: a job it does not have is lost (a ledger answering from Kubernetes is recognised too). */
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
  jobs: Pick<JobsConfig, 'keepCompletedSeconds' | 'keepFailedSeconds'>;
  /**
   * Operations younger than this are left alone: their request may still be writing or queueing (by the
   * Operation's requestedAt on the injected clock). The service passes the setting resync.operationGraceSeconds;
   * without it, that setting's default.
   */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 30_000;

/**
 * One pass over the Operations in the informer cache. Returns what it repaired. Throws Unavailable when Redis is
 * down (nothing can be compared then; the expired ones are deleted first all the same).
 */
export async function repairOperations(deps: RepairOperationsDeps): Promise<OperationRepair[]> {
  const { store, queue, clock } = deps;
  const now = clock.now();
  const repairs: OperationRepair[] = [];
  const ops = store
    .cachedList<Operation>('Operation', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((o) => o.object);
  const refOf = (op: Operation) => ({ kind: 'Operation' as const, ...operationRef(deps, op.metadata.name) });

  for (const op of ops.filter(isFinished)) {
    const keepSeconds = op.status?.phase === 'Failed' ? deps.jobs.keepFailedSeconds : deps.jobs.keepCompletedSeconds;
    const finishedAt = Date.parse(op.status?.finishedAt ?? '');
    if (Number.isNaN(finishedAt) || now - finishedAt <= keepSeconds * 1000) continue;
    try {
      await store.delete(
        'Operation',
        operationRef(deps, op.metadata.name),
        op.metadata.uid ? { uid: op.metadata.uid } : {},
      );
      repairs.push({
        repair: 'operation-deleted',
        ref: refOf(op),
        detail: `${op.status?.phase} ${op.spec.type}, finished ${op.status?.finishedAt}: past the job history window`,
      });
    } catch (err) {
      if ((err as { code?: string }).code !== 'NotFound')
        deps.log.warn(
          { operation: op.metadata.name, err: (err as Error).message },
          'could not delete an expired Operation',
        );
    }
  }

  const grace = deps.graceMs ?? DEFAULT_GRACE_MS;
  for (const op of ops.filter((o) => !isFinished(o))) {
    const requestedAt = Date.parse(op.spec.requestedAt);
    if (!Number.isNaN(requestedAt) && now - requestedAt < grace) continue;
    const name = op.metadata.name;
    const id = jobIds.split(name);
    if (!id) continue;
    // Redis being down ends the pass (the resync runs again once Redis answers); anything else skips this Operation.
    let job: JobView | undefined;
    try {
      job = await queue.get(name);
      if (!job || job.source === 'kubernetes') {
        await queue.enqueue(keptJob(op.spec.type, op.spec.payload), {
          jobId: id.part,
          hub: id.hub,
          target: jobTarget(op.spec.target),
          operation: true,
        });
      }
    } catch (err) {
      if (err instanceof Unavailable) throw err;
      deps.log.warn({ operation: name, err: (err as Error).message }, 'could not queue the job of an Operation again');
      continue;
    }
    if (!job || job.source === 'kubernetes') {
      repairs.push({
        repair: 'operation-requeued',
        ref: refOf(op),
        detail: `${op.spec.type} for ${describe(op)}: Redis had no job ${name}; queued again under the same id`,
      });
    } else if (job.state === 'completed' || job.state === 'failed') {
      const end =
        job.state === 'completed'
          ? { state: 'completed' as const, result: job.result }
          : { state: 'failed' as const, error: job.error ?? { message: 'failed' } };
      try {
        await store.mergePatch(
          'Operation',
          operationRef(deps, name),
          { status: endStatus(end, job.finishedAt ?? new Date(now).toISOString()) },
          { subresource: 'status' },
        );
        repairs.push({
          repair: 'operation-end-recorded',
          ref: refOf(op),
          detail: `${op.spec.type} for ${describe(op)}: its job ${job.state}, which the Operation did not say`,
        });
      } catch (err) {
        deps.log.warn(
          { operation: name, err: (err as Error).message },
          'could not record the end of a job on its Operation',
        );
      }
    }
  }
  return repairs;
}

const describe = (op: Operation) => {
  const t = op.spec.target;
  return `${t.kind} ${t.hub}/${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
};
