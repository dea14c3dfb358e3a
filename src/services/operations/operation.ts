// Operation resources (declared in hive/resources/operation.ts): one per request accepted with 202, named after
// its job, in Beekeeper's state namespace. What was asked lives in spec, what became of it in status, so the
// request outlives Redis losing its job (ARCHITECTURE.md principle 1).
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { OperationPhaseSchema, OperationSpec, OperationStatus } from '../../hive/resources/operation.js';
import type { IdempotencyMark } from '../idempotency/mark.js';
import type { JobTarget, KindName, KubeObject, ObjectRef, StateLocation } from '../ports.js';

export type { IdempotencyMark };

/** Every Operation of one target carries the same value, so the in-flight ones are found by label. */
export const TARGET_LABEL = 'beekeeper.io/target';
export const TYPE_LABEL = 'beekeeper.io/operation-type';

export type OperationPhase = Static<typeof OperationPhaseSchema>;

export interface OperationTarget extends JobTarget {
  /** The object meant, once known: a re-created namesake is not acted on. */
  uid?: string;
}

/** The resource's shape, with the target's kind one of the kind table's (it names what the job acts on). */
export interface Operation extends KubeObject {
  spec: OperationSpec & { target: OperationTarget };
  status?: OperationStatus;
}

/** Who asks, as the HTTP edge saw it: recorded on the Operation (and on objects created synchronously). */
export interface Requester {
  by?: string;
  idempotency?: IdempotencyMark;
}

export const isFinished = (op: Operation) => op.status?.phase === 'Succeeded' || op.status?.phase === 'Failed';

export const operationRef = (home: StateLocation, name: string): ObjectRef => ({
  hub: home.stateHub,
  namespace: home.stateNamespace,
  name,
});

/** A label value (at most 63 characters) naming one target, whatever the length of its name. */
export function targetKey(target: Pick<JobTarget, 'kind' | 'hub' | 'namespace' | 'name'>): string {
  return createHash('sha256')
    .update(`${target.kind}/${target.hub}/${target.namespace ?? ''}/${target.name}`)
    .digest('hex')
    .slice(0, 40);
}

export const sameTarget = (a: JobTarget, b: JobTarget) =>
  a.kind === b.kind && a.hub === b.hub && (a.namespace ?? '') === (b.namespace ?? '') && a.name === b.name;

export const targetOf = (kind: KindName, ref: ObjectRef, uid?: string): OperationTarget => ({
  kind,
  hub: ref.hub,
  ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
  name: ref.name,
  ...(uid ? { uid } : {}),
});

/** The job's target as the job queue knows it (no uid). */
export const jobTarget = ({ uid: _uid, ...target }: OperationTarget): JobTarget => target;
