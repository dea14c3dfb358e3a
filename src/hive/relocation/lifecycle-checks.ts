// Preflight's checks on where a ClusterDeployment is in its life (REFERENCE.md §6): deleting, mid-relocation,
// unclaimed in a pool, not installed, mid power change, claimed with the claim pending.
import { ANNOTATIONS } from '../constants.js';
import { RELOCATION_LABEL } from '../relocation-marks.js';
import { lifecyclePhase } from '../phase.js';
import type { RelocationCheck } from '../resources/relocation.js';
import { isUnclaimedPoolCluster, requestedState } from '../schedule/cd-facts.js';
import { findCondition, type ClusterDeployment } from '../types.js';
import { blocking, CHECK, type ClusterFacts } from './preflight-facts.js';

/** Where the cluster is in its life: only an installed, settled, unclaimed-or-bound cluster moves. */
export function lifecycleChecks(cd: ClusterDeployment, facts: ClusterFacts): RelocationCheck[] {
  const out: RelocationCheck[] = [];
  const phase = lifecyclePhase(cd);
  const relocate = cd.metadata.annotations?.[ANNOTATIONS.relocate];
  const label = cd.metadata.labels?.[RELOCATION_LABEL];

  if (cd.metadata.deletionTimestamp) {
    out.push(
      blocking(
        CHECK.deleting,
        `being deleted since ${cd.metadata.deletionTimestamp} (${phase.message})`,
        'nothing to move: let the deletion finish',
      ),
    );
    return out;
  }
  if (relocate || (label && label !== facts.relocationId && !facts.otherRelocations.includes(label))) {
    out.push(
      blocking(
        CHECK.relocating,
        relocate
          ? `already being relocated (${ANNOTATIONS.relocate}=${relocate})`
          : `carries ${RELOCATION_LABEL}=${label} from another relocation`,
        relocate
          ? 'wait for that relocation to finish or abort it'
          : `remove the label ${RELOCATION_LABEL} if relocation ${label} is over`,
      ),
    );
  }
  if (isUnclaimedPoolCluster(cd)) {
    const pool = `${cd.spec.clusterPoolRef?.namespace}/${cd.spec.clusterPoolRef?.poolName}`;
    out.push(
      blocking(
        CHECK.poolCluster,
        `unclaimed cluster of pool ${pool}: pools are per hub, and the pool on ${facts.from} would replace it`,
        `create the pool on ${facts.to} instead (POST /v1/pools), or claim the cluster first`,
      ),
    );
  }
  if (cd.spec.installed !== true) {
    out.push(
      blocking(
        CHECK.installed,
        `not installed (${phase.phase}: ${phase.message}); a relocation stops provisioning mid-way`,
        'wait for the install to finish (or delete the cluster), then relocate',
      ),
    );
    return out;
  }
  if (phase.phase === 'Stopping' || phase.phase === 'Resuming') {
    out.push(
      blocking(
        CHECK.powerTransition,
        `mid power transition: spec.powerState=${requestedState(cd)}, status.powerState=${cd.status?.powerState} (${phase.message})`,
        `wait until the cluster is ${requestedState(cd)}, then relocate`,
      ),
    );
  } else if (
    (phase.phase === 'Running' || phase.phase === 'Hibernating') &&
    requestedState(cd) !== cd.status?.powerState &&
    findCondition(cd, 'Hibernating')?.reason !== 'Unsupported'
  ) {
    out.push(
      blocking(
        CHECK.powerTransition,
        `power change requested and not started: spec.powerState=${requestedState(cd)}, status.powerState=${cd.status?.powerState}`,
        `wait until the cluster is ${requestedState(cd)}, then relocate`,
      ),
    );
  }
  const claim = cd.spec.clusterPoolRef?.claimName;
  if (claim) {
    const pool = `${cd.spec.clusterPoolRef?.namespace}/${cd.spec.clusterPoolRef?.poolName}`;
    if (facts.claimPending)
      out.push(
        blocking(
          CHECK.claimPending,
          `claimed by ${cd.spec.clusterPoolRef?.namespace}/${claim}, which is still pending`,
          'wait until the claim is fulfilled (its cluster running), then relocate',
        ),
      );
    else
      out.push({
        check: CHECK.poolCluster,
        severity: 'info',
        message:
          `claimed cluster of pool ${pool}: it moves, its ClusterClaim ${claim} stays on ${facts.from} ` +
          `(Hive copies no claims or pools); on ${facts.to} it is a standalone cluster`,
      });
  }
  return out;
}
