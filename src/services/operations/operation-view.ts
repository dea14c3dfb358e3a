// The job view of an Operation whose job Redis no longer has (flushed, restarted, or not enqueued yet): what was
// asked and what became of it as recorded on the Operation, and what Kubernetes shows of the target now. Marked
// `source: kubernetes`, so a caller knows the steps and attempts of the job are not in it.
import { lifecyclePhase } from '../../hive/phase.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore, JobState, JobStep, JobView, KubeObject } from '../ports.js';
import { jobTarget, type Operation, type OperationTarget } from './operation.js';

const STATE: Record<string, JobState> = {
  Pending: 'waiting',
  Running: 'active',
  Succeeded: 'completed',
  Failed: 'failed',
};

/** The target as the informer cache shows it now, in one step. */
export function observeTarget(store: HiveStore, target: OperationTarget, at: string): JobStep {
  if (
    !['ClusterDeployment', 'ClusterClaim', 'ClusterPool', 'HibernationSchedule', 'Relocation'].includes(target.kind)
  ) {
    return { step: 'Unobserved', message: `Beekeeper does not watch ${target.kind} objects`, at };
  }
  const seen = store.cached<KubeObject>(target.kind as 'ClusterDeployment', target);
  const obj = seen && (!target.uid || seen.metadata.uid === target.uid) ? seen : undefined;
  const what = `${target.kind} ${target.hub}/${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
  if (!obj) return { step: 'TargetGone', message: `${what} does not exist (any more)`, at };
  if (target.kind === 'ClusterDeployment') {
    const cd = obj as ClusterDeployment;
    const phase = lifecyclePhase(cd);
    const power = cd.spec.installed
      ? `; spec.powerState ${cd.spec.powerState || 'Running'}, status.powerState ${cd.status?.powerState ?? 'not reported'}`
      : '';
    return { step: phase.phase, message: `${what}: ${phase.message}${power}`, at };
  }
  if (target.kind === 'HibernationSchedule') {
    const last = (obj as { status?: { lastSweep?: { edge?: string; finishedAt?: string; acted?: number } } }).status
      ?.lastSweep;
    return last
      ? {
          step: 'LastSweep',
          message:
            `${what}: last sweep for the edge at ` +
            `${last.edge}${last.finishedAt ? `, finished ${last.finishedAt} (${last.acted ?? 0} acted)` : ', not finished'}`,
          at,
        }
      : { step: 'NeverSwept', message: `${what} has not been swept yet`, at };
  }
  if (target.kind === 'Relocation') {
    const status = (obj as { status?: { phase?: string; clusters?: Array<{ state: string }> } }).status;
    const clusters = status?.clusters ?? [];
    const moved = clusters.filter((c) => c.state === 'moved').length;
    return {
      step: status?.phase ?? 'Pending',
      message: `${what}: ${status?.phase ?? 'Pending'}, ${moved} of ${clusters.length} clusters moved`,
      at,
    };
  }
  if (obj.metadata.deletionTimestamp)
    return { step: 'Deleting', message: `${what} is being deleted since ${obj.metadata.deletionTimestamp}`, at };
  return { step: 'Present', message: `${what} exists`, at };
}

export function operationJobView(op: Operation, observed: JobStep): JobView {
  const phase = op.status?.phase ?? 'Pending';
  const requestedAt = op.spec.requestedAt;
  const steps: JobStep[] = [
    {
      step: 'Accepted',
      message: `requested${op.spec.requestedBy ? ` by ${op.spec.requestedBy}` : ''}; the job's own record is not in Redis`,
      at: requestedAt,
    },
  ];
  if (op.status?.startedAt) steps.push({ step: 'Started', at: op.status.startedAt });
  if (op.status?.finishedAt) steps.push({ step: phase, at: op.status.finishedAt });
  steps.push(observed);
  const view: JobView = {
    id: op.metadata.name,
    type: op.spec.type,
    state: STATE[phase] ?? 'unknown',
    target: jobTarget(op.spec.target),
    steps,
    attempts: 0,
    createdAt: requestedAt,
    source: 'kubernetes',
  };
  if (op.status?.startedAt) view.startedAt = op.status.startedAt;
  if (op.status?.finishedAt) view.finishedAt = op.status.finishedAt;
  if (phase === 'Succeeded') view.result = op.status?.result ?? null;
  // Beekeeper always writes a message; the CRD does not require one of an Operation written by hand.
  if (phase === 'Failed' && op.status?.error)
    view.error = { ...op.status.error, message: op.status.error.message ?? '' };
  return view;
}
