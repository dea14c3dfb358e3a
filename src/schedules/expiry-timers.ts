// The scheduler role for expiry: one timer per expiring object at its next warning's due time, and policy
// enforcement when clusters or policies change. Timers only enqueue, with ids derived from the object, the
// lead time and the expiry instant, so replicas collapse onto one job and an extension starts new warnings.
import type { KubeObject } from '../services/ports.js';
import { createOutageLog } from '../services/resync/outage-log.js';
import { enqueueFixed, type FixedJob } from '../services/resync/repair.js';
import { claimExpiry, clusterExpiry, warningPlan, type Expiring } from '../services/expiry/index.js';
import { policyEnforcement, warnJob, type ExpiryScanDeps } from './expiry-scan.js';
import type { ClusterDeployment } from '../hive/types.js';
import type { ClusterClaim } from '../hive/pools/types.js';

/** The shared service ports and where Beekeeper's own resources live. */
export type ExpiryTimersDeps = ExpiryScanDeps;

export function startExpiryTimers(deps: ExpiryTimersDeps): { close(): void; pending(): Record<string, string> } {
  const timers = new Map<string, { atMs: number; cancel: () => void }>();
  let closed = false;

  // A failed enqueue (Redis down) is not lost: the next resync finds the warning or the policy still owed. An
  // outage is logged once, not once per object whose timer fires meanwhile.
  const outage = createOutageLog(deps.log, 'expiry jobs');
  const failed = (type: string) => (err: unknown) =>
    outage.failed(err, { type }, 'cannot enqueue expiry job; the resync retries it', 'error');
  const enqueue = (job: FixedJob) => enqueueFixed(deps.queue, job).then(outage.ok, failed(job.type));

  /** The target as the cache has it now (its annotations record what was already delivered). */
  const current = (t: Expiring): Expiring | undefined => {
    const ref = { hub: t.hub, namespace: t.namespace, name: t.name };
    if (t.kind === 'ClusterDeployment') {
      const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', ref);
      return cd && clusterExpiry(t.hub, cd);
    }
    const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref);
    return claim && claimExpiry(t.hub, claim);
  };

  const track = (key: string, target: Expiring | undefined) => {
    const existing = timers.get(key);
    if (closed || !target) {
      existing?.cancel();
      timers.delete(key);
      return;
    }
    const plan = warningPlan(deps, target, deps.clock.now());
    const job = warnJob(target, plan);
    if (job) void enqueue(job);
    const atMs = plan.nextAtMs;
    if (atMs === undefined) {
      existing?.cancel();
      timers.delete(key);
      return;
    }
    if (existing?.atMs === atMs) return;
    existing?.cancel();
    timers.set(key, {
      atMs,
      cancel: deps.clock.at(atMs, () => {
        timers.delete(key);
        track(key, current(target) ?? target);
      }),
    });
  };

  const enforce = (hub: string, cd: ClusterDeployment) => {
    const job = policyEnforcement(deps, hub, cd);
    if (job) void deps.queue.enqueue(job, { dedupId: job.dedupId, hub: job.hub }).then(outage.ok, failed(job.type));
  };

  const onCluster = (hub: string, cd: ClusterDeployment, deleted: boolean) => {
    track(`cd/${hub}/${cd.metadata.namespace}/${cd.metadata.name}`, deleted ? undefined : clusterExpiry(hub, cd));
    if (!deleted) enforce(hub, cd);
  };
  const onClaim = (hub: string, claim: ClusterClaim, deleted: boolean) =>
    track(
      `claim/${hub}/${claim.metadata.namespace}/${claim.metadata.name}`,
      deleted ? undefined : claimExpiry(hub, claim),
    );
  const everything = () => {
    for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment'))
      onCluster(hub, object, false);
    for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) onClaim(hub, object, false);
  };

  const unsubscribe = [
    deps.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, type, obj) =>
      onCluster(hub, obj, type === 'DELETED'),
    ),
    deps.store.onChange<ClusterClaim>('ClusterClaim', (hub, type, obj) => onClaim(hub, obj, type === 'DELETED')),
    // Lead times and caps come from policies: re-plan everything when one changes.
    deps.store.onChange<KubeObject>('ExpiryPolicy', (hub) => {
      if (hub === deps.stateHub) everything();
    }),
  ];
  everything();

  return {
    pending: () => Object.fromEntries([...timers].map(([k, t]) => [k, new Date(t.atMs).toISOString()])),
    close() {
      closed = true;
      for (const off of unsubscribe) off();
      for (const t of timers.values()) t.cancel();
      timers.clear();
    },
  };
}
