// The one power primitive: whether a cluster's power may be changed, and the change itself, for a person's request
// (cluster-service.ts, then power-job.ts follows Hive) and for a schedule (schedules/apply-power.ts). Both consult
// powerEligibility (src/hive) and write spec.powerState with patchPowerState; where they differ, on purpose, it is
// a parameter said here: which refusals a request waives, whether an Operation's name is written beside the state,
// and whether the write is conditional (only the power job's own late write is not).
import { CONDITIONS, POWER_REASONS } from '../../hive/constants.js';
import { Conflict, Invalid, NotFound } from '../../hive/errors.js';
import { powerEligibility, requestedState, type SkipReason } from '../../hive/schedule/index.js';
import { findCondition, type ClusterDeployment } from '../../hive/types.js';
import type { WriteOutcome } from '../operations/accept.js';
import { isFinished, type Operation } from '../operations/operation.js';
import type { HiveStore, NamespacedRef, ObjectRef } from '../ports.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { POWER_JOBS } from './cluster-jobs.js';

export type PowerTarget = 'Hibernating' | 'Running';

export const POWER_JOB_TYPES: readonly string[] = POWER_JOBS.map((j) => j.type);

/**
 * On a ClusterDeployment: the Operation (job id) that last set spec.powerState through Beekeeper's API. A request
 * writes it with spec.powerState, conditionally on the version it checked, so two requests never both win; and a
 * job finding its own id there knows its change was made, and must not make it again over a later one.
 */
export const POWER_OPERATION_ANNOTATION = 'beekeeper.io/power-operation';

/**
 * On a ClusterDeployment: the schedule sweep (its job id) that last set spec.powerState. Written in the same
 * conditional patch as the state, so it is the sweep's durable checkpoint for that cluster: a run of the same job
 * again (a crash, a stalled job another worker took, a Redis flush and the edge enqueued again under its id) that
 * finds its own id here knows the change is made and never patches it again. Not POWER_OPERATION_ANNOTATION: that
 * one names an Operation of the API, and a power job run again reads a different name there as "changed since".
 */
export const POWER_SWEEP_ANNOTATION = 'beekeeper.io/power-sweep';

/** The state spec.powerState asks for (Running when unset): the schedule's requestedState, under the job's name. */
export const desired: (cd: ClusterDeployment) => PowerTarget = requestedState;

/** Hive's verdicts that no amount of waiting changes. */
export function hopeless(cd: ClusterDeployment, target: PowerTarget): Invalid | undefined {
  const hib = findCondition(cd, CONDITIONS.hibernating);
  const ready = findCondition(cd, CONDITIONS.ready);
  if (target === 'Hibernating' && hib?.reason === POWER_REASONS.unsupported) {
    return Object.assign(new Invalid(`Hive cannot hibernate this cluster: ${hib.message ?? 'Unsupported'}`), {
      reason: POWER_REASONS.unsupported,
    });
  }
  if (hib?.reason === POWER_REASONS.powerStatePaused || ready?.reason === POWER_REASONS.powerStatePaused) {
    return Object.assign(new Invalid('Hive leaves the power state alone: hive.openshift.io/powerstate-pause is set'), {
      reason: POWER_REASONS.powerStatePaused,
    });
  }
  return undefined;
}

/**
 * The refusals a person's request does not make, where a schedule's run skips. A person asks for a state, and the
 * job waits for Hive to reach it: a cluster mid-transition or already there is followed, not refused (the job
 * reports Already<state>). Hive's own verdicts (powerstate-pause, Unsupported) fail the job with Hive's reason, as
 * Hive would answer. An unclaimed pool cluster is refused: Hive's pool controller sets its spec.powerState on every
 * reconcile (the pool's runningCount decides which stay Running) and overwrites a change made by hand (REFERENCE.md
 * §4.3, "Running versus hibernating"), so the job could only fail once Hive undid it. A cluster a relocation is
 * moving is refused: a power change written to the source mid-move may never reach the copy (Hive copies the
 * ClusterDeployment once), and Hive's hibernation controller does not check the relocate annotation (REFERENCE.md
 * §6 caveats).
 */
const REQUEST_WAIVES = [
  'PowerStatePaused',
  'Unsupported',
  'AlreadyInState',
  'InTransition',
] as const satisfies readonly SkipReason[];

type RequestRefusal = Exclude<SkipReason, (typeof REQUEST_WAIVES)[number]>;

/** What the request answers (409) for each refusal it makes; a new SkipReason must be placed here or waived. */
const REQUEST_REFUSALS: Record<RequestRefusal, (ref: { namespace: string; name: string }, why: string) => string> = {
  UnclaimedPoolCluster: (ref, why) =>
    `ClusterDeployment ${ref.namespace}/${ref.name} cannot change power: ${why}, and Hive overwrites a change made ` +
    "to it by hand; claim the cluster, or change the pool's spec.runningCount",
  Relocating: (ref, why) => `ClusterDeployment ${ref.namespace}/${ref.name} cannot change power now: ${why}`,
  Deleting: (ref) => `ClusterDeployment ${ref.namespace}/${ref.name} is being deleted`,
  NotInstalled: (ref) =>
    `ClusterDeployment ${ref.namespace}/${ref.name} is not installed yet; Hive changes the power state only after install`,
};

/** A person's request to change the power state: the shared precondition, refused as a 409 Conflict. */
export function checkPowerable(cd: ClusterDeployment, ref: { namespace: string; name: string }, to: PowerTarget): void {
  const ok = powerEligibility(cd, to === 'Hibernating' ? 'hibernate' : 'resume', { waive: REQUEST_WAIVES });
  if (!ok.ok) throw new Conflict(REQUEST_REFUSALS[ok.reason](ref, ok.message));
}

/**
 * The one write of a power change: spec.powerState (left out when it already says so), and `operation` in
 * POWER_OPERATION_ANNOTATION when given (and a sweep's job id in POWER_SWEEP_ANNOTATION), in one merge patch conditional on the version judged, so a concurrent
 * change makes it a Conflict. A schedule passes no operation: the annotation names the last Operation of
 * Beekeeper's API that set the state, and a power job run again after Redis lost it reads "my id is there and the
 * spec says otherwise" as "changed since, do not undo it"; a schedule's change must keep saying that.
 * `conditional: false` only for the power job's own write (power-job.ts), made over any version as it always was.
 */
export async function patchPowerState(
  store: HiveStore,
  ref: ObjectRef,
  seen: ClusterDeployment,
  to: PowerTarget,
  opts: { operation?: string; sweep?: string; conditional?: boolean } = {},
): Promise<void> {
  const annotations = {
    ...(opts.operation ? { [POWER_OPERATION_ANNOTATION]: opts.operation } : {}),
    ...(opts.sweep ? { [POWER_SWEEP_ANNOTATION]: opts.sweep } : {}),
  };
  await store.mergePatch(
    'ClusterDeployment',
    ref,
    {
      ...(opts.operation || opts.sweep ? { metadata: { annotations } } : {}),
      ...(desired(seen) === to ? {} : { spec: { powerState: to } }),
    },
    opts.conditional === false ? undefined : { resourceVersion: seen.metadata.resourceVersion },
  );
}

/**
 * The up-front write of a person's hibernate or resume (intent first, issue 9). Two requests racing on one cluster
 * cannot both win: the loser's patch is a Conflict, and reading again it finds the winner's Operation in progress
 * (join it, or refuse). A request with nothing to change (spec.powerState already says so) still writes its name,
 * so that an opposite request racing it is refused too; nothing is written when Hive has said it cannot (the job
 * then fails with Hive's reason, the spec left alone).
 */
export async function writePowerState(
  deps: { store: HiveStore; operations: { find(name: string): Promise<Operation | undefined> } },
  ref: NamespacedRef,
  to: PowerTarget,
  op: Operation,
  /** The cluster as the request checked it (the cache): tried first, read live again only on a Conflict. */
  seen: ClusterDeployment,
  rules: { type: string; refuse(type: string, id: string): Error },
): Promise<WriteOutcome | void> {
  return retryOnConflict(async (attempt) => {
    // After a Conflict, live: Hive's own status writes move the version often, and the cache may lag.
    const live = attempt === 1 ? seen : await deps.store.get<ClusterDeployment>('ClusterDeployment', ref);
    if (!live) throw new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
    checkPowerable(live, ref, to);
    const holder = live.metadata.annotations?.[POWER_OPERATION_ANNOTATION];
    if (holder && holder !== op.metadata.name) {
      const other = await deps.operations.find(holder);
      if (other && !isFinished(other) && POWER_JOB_TYPES.includes(other.spec.type)) {
        if (other.spec.type === rules.type) return { join: other };
        throw rules.refuse(other.spec.type, holder);
      }
    }
    if (hopeless(live, to)) return;
    await patchPowerState(deps.store, ref, live, to, { operation: op.metadata.name });
  });
}
