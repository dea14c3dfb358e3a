// What the simulated clusterpool controller writes into a ClusterPool's status besides its own conditions: the
// cluster counts and the AllClustersCurrent condition (pkg/controller/clusterpool).
import { A, type Obj } from './context.js';
import { type Condition, setCondition } from './conditions.js';
import type { PoolCollection } from './pool-collection.js';

/** The pool's counts of its unassigned, standby and ready clusters (status.size, .standby, .ready). */
export const statusCounts = (cds: PoolCollection) => ({
  size: cds.unassigned.length,
  standby: cds.standby.length,
  ready: cds.ready.length,
});

/**
 * setCDsCurrentCondition: mismatched hashes win over missing ones; the message names only that group, sorted.
 */
export function allClustersCurrent(conditions: Condition[], cds: PoolCollection, now: number): Condition[] {
  const names = (list: Obj[]) =>
    list
      .map((c) => c.metadata.name as string)
      .sort()
      .join(', ');
  const unknown = cds.stale.filter((cd) => !cd.metadata.annotations?.[A.poolSpecHash]);
  const mismatched = cds.stale.filter((cd) => !unknown.includes(cd));
  if (mismatched.length > 0) {
    return setCondition(
      conditions,
      'AllClustersCurrent',
      'False',
      'SomeClusterDeploymentsStale',
      `Some unassigned ClusterDeployments do not match the pool configuration: ${names(mismatched)}`,
      now,
    );
  }
  if (unknown.length > 0) {
    return setCondition(
      conditions,
      'AllClustersCurrent',
      'Unknown',
      'SomeClusterDeploymentsUnknown',
      `Some unassigned ClusterDeployments are missing their pool spec hash annotation: ${names(unknown)}`,
      now,
    );
  }
  return setCondition(
    conditions,
    'AllClustersCurrent',
    'True',
    'ClusterDeploymentsCurrent',
    'All unassigned ClusterDeployments match the pool configuration',
    now,
  );
}
