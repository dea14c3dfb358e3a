// Hive's ClusterPool conditions in plain words (REFERENCE.md §4.2): only what is wrong or pending is said, with
// each condition's polarity as Hive sets it.
import { describe, expect, it } from 'vitest';
import { poolProblems } from '../../src/hive/pools/pool-conditions.js';
import type { Condition } from '../../src/hive/pools/types.js';

const c = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, message?: string): Condition => ({
  type,
  status,
  reason,
  ...(message ? { message } : {}),
});

const HEALTHY = [
  c('MissingDependencies', 'False', 'Verified', 'Dependencies verified'),
  c('CapacityAvailable', 'True', 'Available'),
  c('AllClustersCurrent', 'True', 'ClusterDeploymentsCurrent'),
  c('InventoryValid', 'True', 'Valid'),
  c(
    'DeletionPossible',
    'False',
    'ClusterDeploymentsPendingCleanup',
    'The following ClusterDeployments are pending cleanup: a',
  ),
];

describe('pool problems in plain words', () => {
  it('a healthy pool has none (DeletionPossible=False only matters once the pool is being deleted)', () => {
    expect(poolProblems(HEALTHY, false)).toEqual([]);
    expect(poolProblems(undefined, false)).toEqual([]);
  });

  it('names missing dependencies, capacity, stale and unknown clusters, and an invalid inventory', () => {
    const words = (conditions: Condition[]) =>
      poolProblems(conditions, false).map((p) => `${p.type}/${p.reason}: ${p.message}`);
    expect(words([c('MissingDependencies', 'True', 'Missing', 'pull secret: secrets "pull" not found')])).toEqual([
      'MissingDependencies/Missing: missing dependencies, no clusters can be built: pull secret: secrets "pull" not found',
    ]);
    expect(words([c('CapacityAvailable', 'False', 'MaxCapacity')])[0]).toMatch(
      /^CapacityAvailable\/MaxCapacity: at capacity: maxSize counts every cluster of the pool, claimed ones included/,
    );
    expect(words([c('AllClustersCurrent', 'False', 'SomeClusterDeploymentsStale')])).toEqual([
      'AllClustersCurrent/SomeClusterDeploymentsStale: some clusters were built from an older pool spec; Hive replaces them one at a time',
    ]);
    expect(words([c('AllClustersCurrent', 'Unknown', 'SomeClusterDeploymentsUnknown')])).toEqual([
      'AllClustersCurrent/SomeClusterDeploymentsUnknown: some clusters lack the pool spec hash; Hive cannot tell whether they are current',
    ]);
    expect(words([c('InventoryValid', 'False', 'Invalid', '{"Missing":["cdc-1"]}')])).toEqual([
      'InventoryValid/Invalid: inventory invalid: {"Missing":["cdc-1"]}',
    ]);
  });

  it('while the pool is being deleted, says which clusters hold it', () => {
    expect(poolProblems(HEALTHY, true)).toEqual([
      {
        type: 'DeletionPossible',
        reason: 'ClusterDeploymentsPendingCleanup',
        message:
          'deletion waits for clusters to be cleaned up: The following ClusterDeployments are pending cleanup: a',
      },
    ]);
  });
});
