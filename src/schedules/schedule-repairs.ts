// The resync's repairers for schedules: an edge owed a sweep whose job Redis does not have is swept under its
// deterministic id, an edge past its catchUpDeadline with nothing recorded gets `lastMissed`, and a lapsed
// keep-awake or install grace period not yet handled gets its reconcile job again. The rules are the timers' own
// (schedule-scan.ts).
import { ensureJob, repairEach, type Repairer } from '../services/resync/repair.js';
import { listSchedules, stateRef } from '../services/schedules/index.js';
import { clusterEdges, lapseJob, recordMissed, scheduleCatchUp, type ScheduleScanDeps } from './schedule-scan.js';

export function scheduleRepairers(deps: ScheduleScanDeps): Repairer[] {
  return [
    {
      name: 'schedule-edge',
      repair: (run) =>
        repairEach(run, listSchedules(deps), async (cr) => {
          let owed;
          try {
            owed = scheduleCatchUp(deps, cr, run.nowMs);
          } catch {
            return undefined; // an invalid schedule is reported by the timers, never half-run
          }
          if (!owed) return undefined;
          const ref = stateRef(deps, cr.metadata.name);
          const edge = `the ${owed.edge.action} edge at ${owed.edge.at}`;
          if (owed.kind === 'missed') {
            await recordMissed(deps, cr, owed, run.nowMs);
            return {
              repair: 'schedule-missed',
              kind: 'HibernationSchedule',
              ref,
              message: `${edge} was neither swept nor recorded as missed: ${owed.reason}`,
            };
          }
          if (!(await ensureJob(deps.queue, owed.job))) return undefined;
          return {
            repair: 'schedule-sweep',
            kind: 'HibernationSchedule',
            ref,
            message: `${edge} is not swept and its sweep job was gone (Redis lost it, or it was never enqueued): swept again as ${owed.job.jobId}`,
          };
        }),
    },
    {
      name: 'cluster-edge',
      repair: (run) =>
        repairEach(
          run,
          clusterEdges(deps, run.nowMs).filter((e) => e.atMs <= run.nowMs),
          async (e) => {
            const job = lapseJob(e);
            if (!(await ensureJob(deps.queue, job))) return undefined;
            const ref = { hub: e.hub, namespace: e.namespace, name: e.name };
            return {
              kind: 'ClusterDeployment',
              ref,
              message: `${e.cause} at ${new Date(e.atMs).toISOString()}, not yet applied and its job was gone: applied again as ${job.jobId}`,
            };
          },
        ),
    },
  ];
}
