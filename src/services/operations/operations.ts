// The Operations use case, one object over the ports (ARCHITECTURE.md, plain factories): accept a 202 request,
// find Operations, view them as jobs, wrap the job queue for /v1/jobs, and the worker's recorder.
import type { Clock, HiveStore, JobQueue, JobView, OperationRecorder, ServiceLog, StateLocation } from '../ports.js';
import { acceptOperation, inFlight, type Intent } from './accept.js';
import { withOperations } from './job-ledger.js';
import { operationRef, type Operation, type OperationTarget } from './operation.js';
import { observeTarget, operationJobView } from './operation-view.js';
import { createOperationRecorder } from './record-outcome.js';

export interface OperationsDeps extends StateLocation {
  store: HiveStore;
  /** The job queue in Redis (not a ledger over it). */
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
}

export interface Operations {
  accept(intent: Intent): Promise<JobView>;
  inFlight(target: OperationTarget): Operation[];
  /** From the informer cache, else a live read (an Operation made a moment ago may not be cached yet). */
  find(name: string): Promise<Operation | undefined>;
  /** The job of an Operation: from Redis, else built from the Operation and its target. */
  viewOf(op: Operation): Promise<JobView>;
  /** The job queue whose get, waitUntilDone and watch answer from Operations where Redis has nothing. */
  ledger<Q extends JobQueue>(queue: Q): Q;
  recorder: OperationRecorder;
}

export function createOperations(deps: OperationsDeps): Operations {
  const { store, queue } = deps;
  const find = async (name: string): Promise<Operation | undefined> => {
    const ref = operationRef(deps, name);
    const cached = store.cached<Operation>('Operation', ref);
    if (cached) return cached;
    // Job ids are `<hub>.<rest>`; anything else never named an Operation, so it costs no call.
    if (!/^[a-z0-9-]+\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) return undefined;
    return store.get<Operation>('Operation', ref).catch(() => undefined);
  };
  const kubernetesView = (op: Operation) =>
    operationJobView(op, observeTarget(store, op.spec.target, new Date(deps.clock.now()).toISOString()));
  const viewOf = async (op: Operation) =>
    (await queue.get(op.metadata.name).catch(() => undefined)) ?? kubernetesView(op);
  return {
    accept: (intent) => acceptOperation({ ...deps, viewOf, kubernetesView }, intent),
    inFlight: (target) => inFlight(deps, target),
    find,
    viewOf,
    ledger: (q) => withOperations(q, { ...deps, find, kubernetesView }),
    recorder: createOperationRecorder(deps),
  };
}

export type { Intent, WriteOutcome } from './accept.js';
