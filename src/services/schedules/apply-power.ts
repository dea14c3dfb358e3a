// Changing one cluster's power state for a schedule: re-check eligibility against the cluster as it is now (the
// sweep decided from a snapshot), patch Hive's spec.powerState conditionally, and leave an Event.
import { actionState, powerEligibility, requestedState, type CdLike, type PowerAction } from '../../hive/schedule/index.js';
import type { HiveStore, KubeObject, ObjectRef } from '../ports.js';
import type { ServiceLog } from './deps.js';

export type ApplyOutcome = { outcome: 'acted'; action: PowerAction } | { outcome: 'skipped'; reason: string; message: string };

export async function applyPower(
  deps: { store: HiveStore; log: ServiceLog },
  ref: ObjectRef,
  action: PowerAction,
  why: { schedule: string; reason: string; dryRun?: boolean },
): Promise<ApplyOutcome> {
  const cd = deps.store.cached<CdLike & KubeObject>('ClusterDeployment', ref) ?? (await deps.store.get<CdLike & KubeObject>('ClusterDeployment', ref));
  if (!cd) return { outcome: 'skipped', reason: 'NotFound', message: 'the cluster no longer exists' };
  const ok = powerEligibility(cd, action);
  if (!ok.ok) {
    if (!why.dryRun && ok.reason !== 'UnclaimedPoolCluster') {
      await deps.store.recordEvent('ClusterDeployment', ref, {
        type: 'Normal',
        reason: 'ScheduleSkipped',
        action: action === 'hibernate' ? 'Hibernate' : 'Resume',
        message: `Schedule ${why.schedule}: ${action} skipped (${ok.reason}): ${ok.message}`,
      });
    }
    return { outcome: 'skipped', reason: ok.reason, message: ok.message };
  }
  if (why.dryRun) return { outcome: 'acted', action };
  const target = actionState(action);
  // Conditional on the version we judged: a concurrent change makes this a Conflict and the job retries.
  await deps.store.mergePatch('ClusterDeployment', ref, { spec: { powerState: target } }, { resourceVersion: cd.metadata.resourceVersion });
  deps.log.info({ hub: ref.hub, namespace: ref.namespace, name: ref.name, schedule: why.schedule, action, from: requestedState(cd) }, 'scheduled power change');
  await deps.store.recordEvent('ClusterDeployment', ref, {
    type: 'Normal',
    reason: action === 'hibernate' ? 'ScheduledHibernate' : 'ScheduledResume',
    action: action === 'hibernate' ? 'Hibernate' : 'Resume',
    message: `Schedule ${why.schedule}: ${action} (${why.reason})`,
  });
  return { outcome: 'acted', action };
}
