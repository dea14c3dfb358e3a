// A person's view of where a ClusterDeployment is in its life, read from Hive's own status and conditions
// (REFERENCE.md §2.3-2.6). Hive has no single "phase" field: the CD controller owns Provisioned/ProvisionFailed/
// ProvisionStopped, the hibernation controller owns Hibernating/Ready and status.powerState.
import {
  ANNOTATIONS,
  CONDITIONS,
  POWER_REASONS,
  PROVISIONED_REASONS,
  RESUME_STEP_COUNT,
  RESUME_STEPS,
  STOPPING_STATES,
  type PowerState,
} from './constants.js';
import { findCondition, type ClusterDeployment } from './types.js';

/** Every phase lifecyclePhase can answer. */
export const PHASES = [
  'Provisioning',
  'ProvisionFailed',
  'ProvisionStopped',
  'Installed',
  'Running',
  'Hibernating',
  'Stopping',
  'Resuming',
  'Unsupported',
  'Deprovisioning',
  'DeprovisionFailed',
  'Relocating',
  'Unknown',
] as const;
export type Phase = (typeof PHASES)[number];

export interface LifecyclePhase {
  phase: Phase;
  /** Hive's reason behind the phase (a condition reason or a status.powerState value). */
  reason?: string;
  /** Plain words, with Hive's own message where it has one. */
  message: string;
  /** Resume progress: Hive's "(step n/4)". */
  step?: { index: number; of: number; state: string };
}

export function lifecyclePhase(cd: ClusterDeployment): LifecyclePhase {
  const provisioned = findCondition(cd, CONDITIONS.provisioned);

  if (cd.metadata.deletionTimestamp) {
    if (provisioned?.reason === PROVISIONED_REASONS.deprovisionFailed) {
      return {
        phase: 'DeprovisionFailed',
        reason: provisioned.reason,
        message: provisioned.message || 'deprovision failed; Hive keeps retrying',
      };
    }
    const deprovisioned = provisioned?.reason === PROVISIONED_REASONS.deprovisioned;
    return {
      phase: 'Deprovisioning',
      reason: provisioned?.reason,
      message: deprovisioned
        ? 'cloud resources removed; waiting for the object to go'
        : 'being deleted; Hive is removing its cloud resources',
    };
  }

  const relocate = cd.metadata.annotations?.[ANNOTATIONS.relocate];
  if (relocate) {
    const [name, status] = relocate.split('/');
    if (status === 'outgoing' || status === 'incoming') {
      return { phase: 'Relocating', reason: status, message: `relocation ${name} is moving this cluster (${status})` };
    }
  }

  if (!cd.spec.installed) return provisioningPhase(cd);
  return powerPhase(cd);
}

function provisioningPhase(cd: ClusterDeployment): LifecyclePhase {
  const stopped = findCondition(cd, CONDITIONS.provisionStopped);
  if (stopped?.status === 'True') {
    return {
      phase: 'ProvisionStopped',
      reason: stopped.reason,
      message: stopped.message || 'Hive stopped trying to provision',
    };
  }
  const failed = findCondition(cd, CONDITIONS.provisionFailed);
  if (failed?.status === 'True') {
    const restarts = cd.status?.installRestarts ?? 0;
    return {
      phase: 'ProvisionFailed',
      reason: failed.reason,
      message: `${failed.message || 'the last provision attempt failed'}; Hive retries with backoff (${restarts} restart${restarts === 1 ? '' : 's'} so far)`,
    };
  }
  const requirements = findCondition(cd, CONDITIONS.requirementsMet);
  if (requirements?.status === 'False') {
    return {
      phase: 'Provisioning',
      reason: requirements.reason,
      message: `waiting: ${requirements.message || requirements.reason}`,
    };
  }
  return {
    phase: 'Provisioning',
    reason: findCondition(cd, CONDITIONS.provisioned)?.reason,
    message: 'Hive is installing the cluster',
  };
}

function powerPhase(cd: ClusterDeployment): LifecyclePhase {
  const hibernating = findCondition(cd, CONDITIONS.hibernating);
  const ready = findCondition(cd, CONDITIONS.ready);

  if (hibernating?.reason === POWER_REASONS.unsupported) {
    return {
      phase: 'Unsupported',
      reason: hibernating.reason,
      message: `running; cannot hibernate: ${hibernating.message || 'no power state actuator'}`,
    };
  }
  if (hibernating?.reason === POWER_REASONS.powerStatePaused || ready?.reason === POWER_REASONS.powerStatePaused) {
    return {
      phase: 'Unknown',
      reason: POWER_REASONS.powerStatePaused,
      message: `power state paused by ${ANNOTATIONS.powerStatePause}`,
    };
  }

  const state = cd.status?.powerState;
  if (!state) {
    return { phase: 'Installed', message: 'installed; Hive has not reported a power state yet' };
  }
  if (state === 'Running') return { phase: 'Running', reason: state, message: ready?.message || 'running and ready' };
  if (state === 'Hibernating')
    return { phase: 'Hibernating', reason: state, message: hibernating?.message || 'machines are stopped' };
  if (STOPPING_STATES.includes(state)) {
    return { phase: 'Stopping', reason: state, message: hibernating?.message || `stopping (${state})` };
  }
  const index = RESUME_STEPS[state as PowerState];
  if (index !== undefined) {
    return {
      phase: 'Resuming',
      reason: state,
      message: ready?.message || `resuming: ${state} (step ${index}/${RESUME_STEP_COUNT})`,
      step: { index, of: RESUME_STEP_COUNT, state },
    };
  }
  return { phase: 'Unknown', reason: state, message: `Hive reports power state ${state}` };
}
