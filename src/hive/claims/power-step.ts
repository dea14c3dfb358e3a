// Where a cluster is on its way to Running, in plain words, from Hive's `status.powerState` (REFERENCE.md §2.5,
// resume sequence; the step numbers are Hive's own "(step n/4)", from the shared constants).
import { RESUME_STEP_COUNT, RESUME_STEPS, type PowerState } from '../constants.js';
import type { ClusterDeployment } from '../types.js';
import { installStep } from './install-step.js';

const RESUME_WORDS: Partial<Record<PowerState, string>> = {
  StartingMachines: 'starting machines',
  WaitingForMachines: 'waiting for machines',
  WaitingForNodes: 'waiting for nodes',
  PausingForClusterOperatorsToSettle: 'letting cluster operators settle',
  WaitingForClusterOperators: 'waiting for cluster operators',
  FailedToStartMachines: 'failed to start machines, Hive retries',
};

const STOPPING_WORDS: Partial<Record<PowerState, string>> = {
  Stopping: 'stopping',
  WaitingForMachinesToStop: 'waiting for machines to stop',
  SyncSetsNotApplied: 'waiting for SyncSets before hibernating',
  FailedToStop: 'failed to stop, Hive retries',
};

export interface PowerStep {
  /** Hive's `status.powerState`, e.g. `WaitingForNodes`; while installing, the install stage (installStep). */
  state: string;
  /** `2/4` while resuming. */
  step?: string;
  /** `resuming, step 2/4: waiting for nodes`. */
  words: string;
}

export function powerStep(cd: ClusterDeployment): PowerStep {
  const state = cd.status?.powerState ?? '';
  if (!cd.spec.installed) return installStep(cd);
  const index = state ? RESUME_STEPS[state] : undefined;
  if (index !== undefined) {
    const step = `${index}/${RESUME_STEP_COUNT}`;
    return { state, step, words: `resuming, step ${step}: ${RESUME_WORDS[state as PowerState] ?? state}` };
  }
  if (state === 'Running') return { state, words: 'running' };
  if (state === 'Hibernating') {
    return { state, words: cd.spec.powerState === 'Running' ? 'hibernating, resume requested' : 'hibernating' };
  }
  const stopping = state ? STOPPING_WORDS[state] : undefined;
  if (stopping) return { state, words: stopping };
  // status.powerState stays empty until the hibernation controller first handles the installed cluster (§2.2).
  if (!state) return { state: 'Installed', words: 'installed, waiting for Hive to start it' };
  return { state, words: `power state ${state}` };
}
