// Hive's ClusterPool conditions in plain words (REFERENCE.md §4.2: types, reasons and their polarity).
import type { Condition } from './types.js';

export interface PoolProblem {
  type: string;
  reason?: string;
  message: string;
}

/** Only conditions that say something is wrong or pending; healthy ones are silence. */
export function poolProblems(conditions: Condition[] | undefined, deleting: boolean): PoolProblem[] {
  const out: PoolProblem[] = [];
  for (const c of conditions ?? []) {
    const say = (message: string) => out.push({ type: c.type, reason: c.reason, message });
    switch (c.type) {
      case 'MissingDependencies':
        if (c.status === 'True') say(`missing dependencies, no clusters can be built: ${c.message ?? 'see the pool'}`);
        break;
      case 'CapacityAvailable':
        if (c.status === 'False')
          say(
            'at capacity: maxSize counts every cluster of the pool, claimed ones included, so new clusters wait for releases',
          );
        break;
      case 'AllClustersCurrent':
        if (c.status === 'False')
          say('some clusters were built from an older pool spec; Hive replaces them one at a time');
        if (c.status === 'Unknown')
          say('some clusters lack the pool spec hash; Hive cannot tell whether they are current');
        break;
      case 'InventoryValid':
        if (c.status === 'False') say(`inventory invalid: ${c.message ?? ''}`.trim());
        break;
      case 'DeletionPossible':
        if (deleting && c.status === 'False')
          say(`deletion waits for clusters to be cleaned up: ${c.message ?? ''}`.trim());
        break;
    }
  }
  return out;
}
