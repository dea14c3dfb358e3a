// Changing one cluster's power state for a schedule: re-check eligibility against the cluster as it is now (the
// sweep decided from a snapshot), patch Hive's spec.powerState conditionally, and leave an Event. The precondition
// and the write are the ones a person's request uses (clusters/power-change.ts); a schedule waives no refusal: it
// skips a cluster mid-transition or already there, and does not wait for Hive.
import { actionState, powerEligibility, requestedState, type PowerAction } from '../../hive/schedule/index.js';
import type { HiveStore, JobContext, ObjectRef } from '../ports.js';
import type { ServiceLog } from './deps.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { patchPowerState } from '../clusters/power-change.js';

export type ApplyOutcome =
  { outcome: 'acted'; action: PowerAction } | { outcome: 'skipped'; reason: string; message: string };

/** The job carrying out the change: it names the Events (so a run after a crash adds none) and keeps the first look. */
export type ApplyRun = Pick<JobContext, 'jobId' | 'once'>;

export async function applyPower(
  deps: { store: HiveStore; log: ServiceLog },
  ref: ObjectRef,
  action: PowerAction,
  why: { schedule: string; reason: string; dryRun?: boolean },
  run?: ApplyRun,
): Promise<ApplyOutcome> {
  const verb = action === 'hibernate' ? 'Hibernate' : 'Resume';
  const key = (reason: string) => (run ? { key: `${run.jobId}/${reason}` } : {});
  const acted = {
    type: 'Normal' as const,
    reason: action === 'hibernate' ? 'ScheduledHibernate' : 'ScheduledResume',
    action: verb,
    message: `Schedule ${why.schedule}: ${action} (${why.reason})`,
  };
  const cd =
    deps.store.cached<ClusterDeployment>('ClusterDeployment', ref) ??
    (await deps.store.get<ClusterDeployment>('ClusterDeployment', ref));
  if (!cd) return { outcome: 'skipped', reason: 'NotFound', message: 'the cluster no longer exists' };
  const ok = powerEligibility(cd, action);
  // A run after a crash or a hand-back at shutdown finds the job's own patch applied, the cluster "already" in
  // state: what the job did is judged against what its first run saw, kept in the job.
  const look = { eligible: ok.ok, requested: requestedState(cd) };
  // Per action: an enforcement job's later run may ask for the other state than its first (reconcile-cluster.ts).
  const first = run?.once && !why.dryRun ? await run.once(`first-look-${action}`, async () => look) : look;
  if (!ok.ok && ok.reason === 'AlreadyInState' && first.eligible) {
    deps.log.info(
      { hub: ref.hub, namespace: ref.namespace, name: ref.name, schedule: why.schedule, action, from: first.requested },
      'scheduled power change (patched by an earlier run of this job)',
    );
    await deps.store.recordEvent('ClusterDeployment', ref, { ...acted, ...key(acted.reason) });
    return { outcome: 'acted', action };
  }
  if (!ok.ok) {
    if (!why.dryRun && ok.reason !== 'UnclaimedPoolCluster') {
      await deps.store.recordEvent('ClusterDeployment', ref, {
        type: 'Normal',
        reason: 'ScheduleSkipped',
        action: verb,
        message: `Schedule ${why.schedule}: ${action} skipped (${ok.reason}): ${ok.message}`,
        ...key('ScheduleSkipped'),
      });
    }
    return { outcome: 'skipped', reason: ok.reason, message: ok.message };
  }
  if (why.dryRun) return { outcome: 'acted', action };
  const target = actionState(action);
  // Conditional on the version we judged: a concurrent change makes this a Conflict and the job retries.
  // No Operation's name: the schedule's change is not an Operation of the API (power-change.ts says why it matters).
  await patchPowerState(deps.store, ref, cd, target);
  deps.log.info(
    {
      hub: ref.hub,
      namespace: ref.namespace,
      name: ref.name,
      schedule: why.schedule,
      action,
      from: requestedState(cd),
    },
    'scheduled power change',
  );
  await deps.store.recordEvent('ClusterDeployment', ref, { ...acted, ...key(acted.reason) });
  return { outcome: 'acted', action };
}
