// Where a cluster is on its way to Running, in plain words, from Hive's `status.powerState` (REFERENCE.md §2.5,
// resume sequence; the step numbers are Hive's own "(step n/4)").
import type { ClusterDeployment } from '../pools/types.js';

const RESUME_STEPS: Record<string, { step: string; words: string }> = {
  StartingMachines: { step: '1/4', words: 'starting machines' },
  WaitingForMachines: { step: '1/4', words: 'waiting for machines' },
  WaitingForNodes: { step: '2/4', words: 'waiting for nodes' },
  PausingForClusterOperatorsToSettle: { step: '3/4', words: 'letting cluster operators settle' },
  WaitingForClusterOperators: { step: '4/4', words: 'waiting for cluster operators' },
  FailedToStartMachines: { step: '1/4', words: 'failed to start machines, Hive retries' },
};

const STOPPING: Record<string, string> = {
  Stopping: 'stopping',
  WaitingForMachinesToStop: 'waiting for machines to stop',
  SyncSetsNotApplied: 'waiting for SyncSets before hibernating',
  FailedToStop: 'failed to stop, Hive retries',
};

export interface PowerStep {
  /** Hive's `status.powerState`, e.g. `WaitingForNodes`. */
  state: string;
  /** `2/4` while resuming. */
  step?: string;
  /** `resuming, step 2/4: waiting for nodes`. */
  words: string;
}

export function powerStep(cd: ClusterDeployment): PowerStep {
  const state = cd.status?.powerState ?? '';
  if (!cd.spec.installed) return { state: state || 'Installing', words: 'installing' };
  const resume = RESUME_STEPS[state];
  if (resume) return { state, step: resume.step, words: `resuming, step ${resume.step}: ${resume.words}` };
  if (state === 'Running') return { state, words: 'running' };
  if (state === 'Hibernating') {
    return { state, words: cd.spec.powerState === 'Running' ? 'hibernating, resume requested' : 'hibernating' };
  }
  if (STOPPING[state]) return { state, words: STOPPING[state]! };
  return { state: state || 'Unknown', words: state ? `power state ${state}` : 'waiting for Hive to report the power state' };
}
