// What the worker tells an Operation about its job (the OperationRecorder port): Running when a run starts,
// Succeeded or Failed with the result or error once the job has ended for good. Written through the status
// subresource; a failure is logged and left to the resync, never failing the job.
import { NotFound } from '../../hive/errors.js';
import type { Clock, HiveStore, JobEnd, OperationRecorder, ServiceLog, StateLocation } from '../ports.js';
import { isFinished, operationRef, type Operation } from './operation.js';

/** A result larger than this is not copied onto the Operation (objects are capped at ~1.5 MB; a sweep lists every cluster). */
export const MAX_RESULT_BYTES = 32 * 1024;

/** The status an ended job gives its Operation. */
export function endStatus(end: JobEnd, finishedAt: string): NonNullable<Operation['status']> {
  if (end.state === 'failed')
    return {
      phase: 'Failed',
      finishedAt,
      error: { message: end.error.message, ...(end.error.reason ? { reason: end.error.reason } : {}) },
    };
  return { phase: 'Succeeded', finishedAt, result: resultObject(end.result) };
}

function resultObject(result: unknown): Record<string, unknown> {
  const text = JSON.stringify(result ?? null);
  if (text.length > MAX_RESULT_BYTES)
    return { omitted: `the result is ${text.length} bytes; GET /v1/jobs/{id} shows it while the job history keeps it` };
  return result && typeof result === 'object' && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : { value: result ?? null };
}

export function createOperationRecorder(
  deps: StateLocation & { store: HiveStore; clock: Clock; log: ServiceLog },
): OperationRecorder {
  const write = async (jobId: string, status: NonNullable<Operation['status']>) => {
    try {
      await deps.store.mergePatch('Operation', operationRef(deps, jobId), { status }, { subresource: 'status' });
    } catch (err) {
      // Deleted by hand, or past its history window: nothing to record on.
      if (err instanceof NotFound) return;
      deps.log.warn(
        { jobId, phase: status.phase, err: (err as Error).message },
        'could not record the job on its Operation; the resync will',
      );
    }
  };
  return {
    async started(jobId) {
      const seen = deps.store.cached<Operation>('Operation', operationRef(deps, jobId));
      if (seen && (seen.status?.phase === 'Running' || isFinished(seen))) return;
      await write(jobId, { phase: 'Running', startedAt: new Date(deps.clock.now()).toISOString() });
    },
    ended: (jobId, end) => write(jobId, endStatus(end, new Date(deps.clock.now()).toISOString())),
  };
}
