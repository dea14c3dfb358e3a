// The up-front write of a hibernate or resume (intent first, issue 9): spec.powerState, which Hive acts on, and
// the Operation's name beside it, in one merge patch conditional on the version just read. Two requests racing
// on one cluster cannot both win: the loser's patch is a Conflict, and reading again it finds the winner's
// Operation in progress (join it, or refuse). A request with nothing to change (spec.powerState already says so)
// still writes its name, so that an opposite request racing it is refused too; nothing is written when Hive has
// said it cannot (the job then fails with Hive's reason, the spec left alone).
import { Conflict, NotFound } from '../../hive/errors.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { WriteOutcome } from '../operations/accept.js';
import { isFinished, type Operation } from '../operations/operation.js';
import type { HiveStore } from '../ports.js';
import { desired, hopeless, POWER_JOB_TYPES, POWER_OPERATION_ANNOTATION, type PowerTarget } from './power-job.js';

const TRIES = 5;

export async function writePowerState(
  deps: { store: HiveStore; operations: { find(name: string): Promise<Operation | undefined> } },
  ref: { hub: string; namespace: string; name: string },
  to: PowerTarget,
  op: Operation,
  /** The cluster as the request checked it (the cache): tried first, read live again only on a Conflict. */
  seen: ClusterDeployment,
  rules: {
    type: string;
    refuse(type: string, id: string): Error;
    check(cd: ClusterDeployment, ref: { namespace: string; name: string }): void;
  },
): Promise<WriteOutcome | void> {
  for (let attempt = 1; ; attempt++) {
    // After a Conflict, live: Hive's own status writes move the version often, and the cache may lag.
    const live = attempt === 1 ? seen : await deps.store.get<ClusterDeployment>('ClusterDeployment', ref);
    if (!live) throw new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
    rules.check(live, ref);
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
      await deps.store.mergePatch(
        'ClusterDeployment',
        ref,
        {
          metadata: { annotations: { [POWER_OPERATION_ANNOTATION]: op.metadata.name } },
          ...(desired(live) === to ? {} : { spec: { powerState: to } }),
        },
        { resourceVersion: live.metadata.resourceVersion },
      );
      return;
    } catch (err) {
      if (!(err instanceof Conflict) || attempt >= TRIES) throw err;
    }
  }
}
