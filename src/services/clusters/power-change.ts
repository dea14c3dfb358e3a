// The one power primitive: whether a cluster's power may be changed, and the change itself, for a person's request
// (cluster-service.ts, then power-job.ts follows Hive) and for a schedule (schedules/apply-power.ts). Both consult
// powerEligibility (src/hive) and write spec.powerState with patchPowerState; where they differ, on purpose, it is
// a parameter said here: which refusals a request waives, and whether an Operation's name is written beside it.
import { Conflict, NotFound } from '../../hive/errors.js';
import { powerEligibility, type SkipReason } from '../../hive/schedule/index.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { WriteOutcome } from '../operations/accept.js';
import { isFinished, type Operation } from '../operations/operation.js';
import type { HiveStore, NamespacedRef, ObjectRef } from '../ports.js';
import { desired, hopeless, POWER_JOB_TYPES, POWER_OPERATION_ANNOTATION, type PowerTarget } from './power-job.js';

/**
 * The refusals a person's request does not make, where a schedule's run skips. A person asks for a state, and the
 * job waits for Hive to reach it: a cluster mid-transition or already there is followed, not refused (the job
 * reports Already<state>). Hive's own verdicts (powerstate-pause, Unsupported) fail the job with Hive's reason, as
 * Hive would answer. Unclaimed pool clusters and relocations are not refused today; refusing them would change
 * what the API answers, so it is left as it is.
 */
const REQUEST_WAIVES = [
  'UnclaimedPoolCluster',
  'Relocating',
  'PowerStatePaused',
  'Unsupported',
  'AlreadyInState',
  'InTransition',
] as const satisfies readonly SkipReason[];

type RequestRefusal = Exclude<SkipReason, (typeof REQUEST_WAIVES)[number]>;

/** What the request answers (409) for each refusal it makes; a new SkipReason must be placed here or waived. */
const REQUEST_REFUSALS: Record<RequestRefusal, (ref: { namespace: string; name: string }) => string> = {
  Deleting: (ref) => `ClusterDeployment ${ref.namespace}/${ref.name} is being deleted`,
  NotInstalled: (ref) =>
    `ClusterDeployment ${ref.namespace}/${ref.name} is not installed yet; Hive changes the power state only after install`,
};

/** A person's request to change the power state: the shared precondition, refused as a 409 Conflict. */
export function checkPowerable(cd: ClusterDeployment, ref: { namespace: string; name: string }, to: PowerTarget): void {
  const ok = powerEligibility(cd, to === 'Hibernating' ? 'hibernate' : 'resume', { waive: REQUEST_WAIVES });
  if (!ok.ok) throw new Conflict(REQUEST_REFUSALS[ok.reason](ref));
}

/**
 * The one write of a power change: spec.powerState (left out when it already says so), and `operation` in
 * POWER_OPERATION_ANNOTATION when given, in one merge patch conditional on the version judged, so a concurrent
 * change makes it a Conflict. A schedule passes no operation: the annotation names the last Operation of
 * Beekeeper's API that set the state, and a power job run again after Redis lost it reads "my id is there and the
 * spec says otherwise" as "changed since, do not undo it"; a schedule's change must keep saying that.
 */
export async function patchPowerState(
  store: HiveStore,
  ref: ObjectRef,
  seen: ClusterDeployment,
  to: PowerTarget,
  operation?: string,
): Promise<void> {
  await store.mergePatch(
    'ClusterDeployment',
    ref,
    {
      ...(operation ? { metadata: { annotations: { [POWER_OPERATION_ANNOTATION]: operation } } } : {}),
      ...(desired(seen) === to ? {} : { spec: { powerState: to } }),
    },
    { resourceVersion: seen.metadata.resourceVersion },
  );
}

const TRIES = 5;

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
  for (let attempt = 1; ; attempt++) {
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
    try {
      await patchPowerState(deps.store, ref, live, to, op.metadata.name);
      return;
    } catch (err) {
      if (!(err instanceof Conflict) || attempt >= TRIES) throw err;
    }
  }
}
