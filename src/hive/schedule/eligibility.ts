// Whether a scheduled power action may touch a cluster right now, and if not, the reason recorded in the sweep
// summary and the cluster's Events. Hive states: REFERENCE.md §2.5 (power states), §2.6 (deletion), §6 (relocate).
import { isTruthy } from '../go-bool.js';
import { relocatingMessage } from '../relocation-marks.js';
import { findCondition, type ClusterDeployment } from '../types.js';
import { isUnclaimedPoolCluster, POWERSTATE_PAUSE_ANNOTATION, requestedState } from './cd-facts.js';
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

/** `R`: the refusals the caller may hear (all but those it waives). */
export type Eligibility<R extends SkipReason = SkipReason> = { ok: true } | { ok: false; reason: R; message: string };

const STABLE = new Set(['Running', 'Hibernating']);

/** Whether spec.powerState already asks for the target (and Hive has not settled elsewhere). */
function alreadyInState(cd: ClusterDeployment, target: string): string | undefined {
  const status = cd.status?.powerState;
  if (requestedState(cd) !== target || (status !== target && status !== undefined && STABLE.has(status))) return;
  return status === target ? `already ${target}` : `already requested ${target} (now ${status ?? 'pending'})`;
}

/** Each refusal in the order it is judged: the first that applies (and is not waived) is the answer. */
const CHECKS: ReadonlyArray<readonly [SkipReason, (cd: ClusterDeployment, action: PowerAction) => string | undefined]> =
  [
    [
      'UnclaimedPoolCluster',
      (cd) =>
        isUnclaimedPoolCluster(cd)
          ? `unclaimed cluster of pool ${cd.spec?.clusterPoolRef?.poolName}: the pool controller owns its power state`
          : undefined,
    ],
    [
      'Deleting',
      (cd) => (cd.metadata.deletionTimestamp ? `being deleted since ${cd.metadata.deletionTimestamp}` : undefined),
    ],
    [
      'Relocating',
      // Beekeeper's label applies from the moment a wave labels the cluster, before Hive marks it outgoing.
      relocatingMessage,
    ],
    [
      'NotInstalled',
      (cd) =>
        cd.spec?.installed !== true ? 'not installed yet: Hive ignores power state until install completes' : undefined,
    ],
    [
      'PowerStatePaused',
      (cd) =>
        isTruthy(cd.metadata.annotations?.[POWERSTATE_PAUSE_ANNOTATION]) || cd.status?.powerState === 'Unknown'
          ? `${POWERSTATE_PAUSE_ANNOTATION} is set: Hive leaves the machines as they are`
          : undefined,
    ],
    [
      'Unsupported',
      (cd, action) => {
        const hibernating = findCondition(cd, 'Hibernating');
        if (action !== 'hibernate' || hibernating?.reason !== 'Unsupported') return undefined;
        return hibernating.message || 'the platform cannot hibernate';
      },
    ],
    ['AlreadyInState', (cd, action) => alreadyInState(cd, actionState(action))],
    [
      'InTransition',
      (cd, action) => {
        const status = cd.status?.powerState;
        const requested = requestedState(cd);
        if (alreadyInState(cd, actionState(action)) !== undefined) return undefined;
        if (status !== undefined && STABLE.has(status) && status === requested) return undefined;
        return `mid-transition: spec.powerState=${requested}, status.powerState=${status ?? '(not reported yet)'}`;
      },
    ],
  ];

/**
 * Whether a cluster's power may be changed now: the one precondition of every power change, a schedule's and a
 * person's (services/clusters/power-change.ts). `waive`: the refusals a caller deliberately does not make, each
 * caller saying why (a person may ask to hibernate a cluster mid-transition; a schedule may not).
 */
export function powerEligibility<W extends SkipReason = never>(
  cd: ClusterDeployment,
  action: PowerAction,
  opts: { waive?: readonly W[] } = {},
): Eligibility<Exclude<SkipReason, W>> {
  const waived: readonly SkipReason[] = opts.waive ?? [];
  for (const [reason, check] of CHECKS) {
    if (waived.includes(reason)) continue;
    const message = check(cd, action);
    // Not waived, so one of Exclude<SkipReason, W> (TypeScript does not narrow a generic by `includes`).
    if (message !== undefined) return { ok: false, reason: reason as Exclude<SkipReason, W>, message };
  }
  return { ok: true };
}
