// Accepting a request that answers 202 (the lead's order, issue 9): Redis must be up and the payload fit for a
// job before anything is written; conflicts are decided from the unfinished Operations (which survive a flush);
// then the Operation, then the up-front write (the action itself, where it can be written: spec.powerState, the
// DELETE, the create's objects), then the job under the Operation's name. A failed write removes the Operation
// and answers the error; a failed enqueue after the write still answers 202: the intent is durable and the resync
// enqueues the job. Losing the job loses the report, never the action.
import { randomUUID } from 'node:crypto';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import { jobIds } from '../job-ids.js';
import type { HiveStore, JobSpec, JobQueue, JobView, ServiceLog, Clock, StateLocation } from '../ports.js';
import {
  TARGET_LABEL,
  TYPE_LABEL,
  isFinished,
  jobTarget,
  operationRef,
  sameTarget,
  targetKey,
  type Operation,
  type OperationTarget,
  type Requester,
} from './operation.js';

/** What the up-front write learnt, or that it found an Operation to join instead (a concurrent request won). */
export interface WriteOutcome {
  /** Merged into the job's payload and the Operation's (e.g. the uid of what the write created). */
  payload?: Record<string, unknown>;
  join?: Operation;
}

/** The job (`jobOf`), and what the Operation needs besides. */
export interface Intent extends JobSpec {
  target: OperationTarget;
  /** The job's queue; default the target's hub. */
  hub?: string;
  requester?: Requester;
  /**
   * How this request stands to an unfinished Operation on the same target: `join` answers with that one's job
   * (the request is already in progress), an Error refuses the request, undefined lets both go on.
   */
  against?: (other: Operation) => 'join' | Error | undefined;
  /** The up-front write, after the Operation exists; it gets the Operation, whose name is the job id. */
  write?: (op: Operation) => Promise<WriteOutcome | void>;
}

export interface AcceptDeps extends StateLocation {
  store: HiveStore;
  /** The job queue in Redis. */
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
  /** The job of an Operation, from Redis or else from Kubernetes. */
  viewOf(op: Operation): Promise<JobView>;
  /** The Operation's own view, for an answer given before its job is in Redis. */
  kubernetesView(op: Operation): JobView;
}

/** Unfinished Operations on this target, from the informer cache. */
export function inFlight(
  deps: Pick<AcceptDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  target: OperationTarget,
): Operation[] {
  return deps.store
    .cachedList<Operation>('Operation', {
      hub: deps.stateHub,
      namespace: deps.stateNamespace,
      labelSelector: `${TARGET_LABEL}=${targetKey(target)}`,
    })
    .map((o) => o.object)
    .filter((o) => !isFinished(o) && sameTarget(o.spec.target, target));
}

/**
 * Whether the hub still has this cached Operation. The cache can hold one its own request removed a moment ago (the
 * write failed, the caller got a 5xx and retries) while the informer is down: joining it would answer with a job
 * that never runs, refusing because of it would refuse for nothing. Asked only when an Operation decides a request.
 */
async function stillThere(deps: Pick<AcceptDeps, 'store' | 'stateHub' | 'stateNamespace'>, op: Operation) {
  const live = await deps.store.get<Operation>('Operation', operationRef(deps, op.metadata.name));
  return live !== undefined && live.metadata.uid === op.metadata.uid;
}

export async function acceptOperation(deps: AcceptDeps, intent: Intent): Promise<JobView> {
  const { store, queue, log } = deps;
  await queue.assertAccepting(intent.payload);
  for (const other of inFlight(deps, intent.target)) {
    const verdict = intent.against?.(other);
    if (!verdict || !(await stillThere(deps, other))) continue;
    if (verdict === 'join') return deps.viewOf(other);
    throw verdict;
  }

  const hub = intent.hub ?? intent.target.hub;
  const id = randomUUID();
  const name = jobIds.on(hub, id);
  const { idempotency } = intent.requester ?? {};
  const op = await store.create<Operation>('Operation', deps.stateHub, {
    apiVersion: BEEKEEPER_API_VERSION,
    kind: 'Operation',
    metadata: {
      name,
      namespace: deps.stateNamespace,
      labels: { [TARGET_LABEL]: targetKey(intent.target), [TYPE_LABEL]: intent.type },
    },
    spec: {
      type: intent.type,
      target: intent.target,
      payload: intent.payload,
      ...(intent.requester?.by ? { requestedBy: intent.requester.by } : {}),
      requestedAt: new Date(deps.clock.now()).toISOString(),
      ...(idempotency
        ? { idempotency: { ...idempotency, status: 202, location: `/v1/jobs/${encodeURIComponent(name)}` } }
        : {}),
    },
  });
  const ref = operationRef(deps, name);
  const remove = () =>
    store
      .delete('Operation', ref, op.metadata.uid ? { uid: op.metadata.uid } : {})
      .catch((err: unknown) =>
        log.warn({ operation: name, err: (err as Error).message }, 'could not remove a refused Operation'),
      );

  let outcome: WriteOutcome | void;
  try {
    outcome = await intent.write?.(op);
  } catch (err) {
    await remove();
    throw err;
  }
  if (outcome?.join) {
    await remove();
    return deps.viewOf(outcome.join);
  }

  let job: JobSpec = intent;
  let recorded = op;
  if (outcome?.payload) {
    job = { ...intent, payload: { ...intent.payload, ...outcome.payload } };
    // So that a job enqueued again from the Operation knows it too.
    recorded = await store
      .mergePatch<Operation>('Operation', ref, { spec: { payload: outcome.payload } })
      .catch((err: unknown) => {
        log.warn(
          { operation: name, err: (err as Error).message },
          'could not record what the write learnt on the Operation',
        );
        return op;
      });
  }
  try {
    return await queue.enqueue(job, {
      jobId: id,
      hub,
      target: jobTarget(intent.target),
      operation: true,
    });
  } catch (err) {
    log.warn(
      { operation: name, type: intent.type, err: (err as Error).message },
      'accepted, but the job could not be queued; the resync queues it',
    );
    return deps.kubernetesView(recorded);
  }
}
