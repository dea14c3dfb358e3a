// The resync's repairers for expiry: a warning due and not yet delivered everywhere (within its usefulness window:
// before the expiry, and until a more urgent lead makes it moot) gets its job again, and a cluster whose expiry
// still breaks an enforced policy gets its enforcement job. The rules are the timers' own (expiry-scan.ts).
import { allExpiring, claimExpiry, clusterExpiry, warningPlan, type Expiring } from '../services/expiry/index.js';
import { ensureJob, mayPass, repairEach, type Repairer } from '../services/resync/repair.js';
import { policyEnforcement, warnJob, type ExpiryScanDeps } from './expiry-scan.js';
import type { ClusterDeployment } from '../hive/types.js';
import type { ClusterClaim } from '../hive/pools/types.js';

export function expiryRepairers(deps: ExpiryScanDeps): Repairer[] {
  /** The target as it is live: the cache may not show a delivery that just happened. */
  const live = async (t: Expiring): Promise<Expiring | undefined> => {
    const ref = { hub: t.hub, namespace: t.namespace, name: t.name };
    if (t.kind === 'ClusterDeployment') {
      const cd = await deps.store.get<ClusterDeployment>('ClusterDeployment', ref);
      return cd && clusterExpiry(t.hub, cd);
    }
    const claim = await deps.store.get<ClusterClaim>('ClusterClaim', ref);
    return claim && claimExpiry(t.hub, claim);
  };

  return [
    {
      name: 'warning',
      repair: (run) =>
        repairEach(run, allExpiring(deps), async (t) => {
          const plan = warningPlan(deps, t, run.nowMs);
          const job = warnJob(t, plan);
          if (!job || !plan.due) return undefined;
          const lead = plan.due.lead;
          // A job that completed delivered to every endpoint there was; one added since (or re-enabled) is owed it
          // too, if the object as it is now still says so.
          const stillOwed = async () => {
            const now = await live(t);
            return (
              now !== undefined &&
              now.expiresAtMs === t.expiresAtMs &&
              warningPlan(deps, now, deps.clock.now()).due?.lead === lead
            );
          };
          const did = await ensureJob(deps.queue, job, { retryFailed: mayPass, rerunCompleted: stillOwed });
          if (!did) return undefined;
          const why =
            did === 'added'
              ? 'its job was gone (Redis lost it, or it was never enqueued)'
              : 'its job had ended without delivering it';
          return {
            kind: t.kind,
            ref: { hub: t.hub, namespace: t.namespace, name: t.name },
            message: `the ${lead} expiry warning is due and not delivered to ${plan.owedTo.join(', ')}; ${why}: sent again as ${job.jobId}`,
          };
        }),
    },
    {
      name: 'expiry-policy',
      // Counted when the cluster as cached still breaks a policy; the job (deduplicated while one is in flight)
      // re-decides on the live object.
      repair: (run) =>
        repairEach(run, deps.store.cachedList<ClusterDeployment>('ClusterDeployment'), async ({ hub, object }) => {
          const job = policyEnforcement(deps, hub, object);
          if (!job) return undefined;
          await deps.queue.enqueue(job, { dedupId: job.dedupId, hub: job.hub });
          const ref = { hub, namespace: object.metadata.namespace ?? '', name: object.metadata.name };
          return {
            kind: 'ClusterDeployment',
            ref,
            message:
              'its expiry still breaks an enforced ExpiryPolicy (a default or cap not applied): enforcement enqueued',
          };
        }),
    },
  ];
}
