// Whether a scheduled power action may touch a cluster right now, and if not, the reason recorded in the sweep
// summary and the cluster's Events. Hive states: REFERENCE.md §2.5 (power states), §2.6 (deletion), §6 (relocate).
import { isTruthy } from '../go-bool.js';
import { findCondition, type ClusterDeployment } from '../types.js';
import {
  isUnclaimedPoolCluster,
  POWERSTATE_PAUSE_ANNOTATION,
  RELOCATE_ANNOTATION,
  requestedState,
} from './cd-facts.js';
import { actionState, type PowerAction } from './types.js';

export type SkipReason =
  | 'UnclaimedPoolCluster'
  | 'Deleting'
  | 'Relocating'
  | 'NotInstalled'
  | 'PowerStatePaused'
  | 'Unsupported'
  | 'AlreadyInState'
  | 'InTransition';

export type Eligibility = { ok: true } | { ok: false; reason: SkipReason; message: string };

const STABLE = new Set(['Running', 'Hibernating']);

export function powerEligibility(cd: ClusterDeployment, action: PowerAction): Eligibility {
  const target = actionState(action);
  const no = (reason: SkipReason, message: string): Eligibility => ({ ok: false, reason, message });
  if (isUnclaimedPoolCluster(cd)) {
    return no(
      'UnclaimedPoolCluster',
      `unclaimed cluster of pool ${cd.spec?.clusterPoolRef?.poolName}: the pool controller owns its power state`,
    );
  }
  if (cd.metadata.deletionTimestamp) return no('Deleting', `being deleted since ${cd.metadata.deletionTimestamp}`);
  const relocate = cd.metadata.annotations?.[RELOCATE_ANNOTATION];
  if (relocate) return no('Relocating', `relocation in progress (${RELOCATE_ANNOTATION}=${relocate})`);
  if (cd.spec?.installed !== true)
    return no('NotInstalled', 'not installed yet: Hive ignores power state until install completes');
  const status = cd.status?.powerState;
  if (isTruthy(cd.metadata.annotations?.[POWERSTATE_PAUSE_ANNOTATION]) || status === 'Unknown') {
    return no('PowerStatePaused', `${POWERSTATE_PAUSE_ANNOTATION} is set: Hive leaves the machines as they are`);
  }
  if (action === 'hibernate' && findCondition(cd, 'Hibernating')?.reason === 'Unsupported') {
    return no('Unsupported', findCondition(cd, 'Hibernating')?.message || 'the platform cannot hibernate');
  }
  const requested = requestedState(cd);
  if (requested === target && (status === target || status === undefined || !STABLE.has(status))) {
    return no(
      'AlreadyInState',
      status === target ? `already ${target}` : `already requested ${target} (now ${status ?? 'pending'})`,
    );
  }
  if (status === undefined || !STABLE.has(status) || status !== requested) {
    return no(
      'InTransition',
      `mid-transition: spec.powerState=${requested}, status.powerState=${status ?? '(not reported yet)'}`,
    );
  }
  return { ok: true };
}
