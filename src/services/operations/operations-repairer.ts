// The Operations repairer as the resync runs it (src/schedules/resync.ts): each lost job queued again and each end
// the worker could not record becomes a counted repair with an Event on its Operation. Deleting Operations past the
// job history window is housekeeping, not a repair: it is logged, not counted, and leaves no Event on a gone object.
import type { Repairer } from '../resync/repair.js';
import { repairOperations, type RepairOperationsDeps } from './repair-operations.js';

export function operationsRepairer(deps: RepairOperationsDeps): Repairer {
  return {
    name: 'operation',
    async repair() {
      const done = await repairOperations(deps);
      const deleted = done.filter((r) => r.repair === 'operation-deleted').length;
      if (deleted > 0) deps.log.info({ deleted }, 'finished Operations past the job history window deleted');
      return done
        .filter((r) => r.repair !== 'operation-deleted')
        .map((r) => ({
          repair: r.repair,
          kind: 'Operation' as const,
          ref: { hub: r.ref.hub, namespace: r.ref.namespace, name: r.ref.name },
          message: r.detail,
        }));
    },
  };
}
