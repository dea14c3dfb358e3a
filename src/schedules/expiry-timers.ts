// The scheduler role for expiry: one timer per expiring object at its next warning's due time, and policy
// enforcement when clusters or policies change. Timers only enqueue, with ids derived from the object, the
// lead time and the expiry instant, so replicas collapse onto one job and an extension starts new warnings.
import { effectiveLimits, planWarnings, policyExpiry, readWarningRecord } from '../hive/expiry/index.js';
import { isUnclaimedPoolCluster, type CdLike } from '../hive/schedule/index.js';
import type { KubeObject, ServiceDeps, StateLocation } from '../services/ports.js';
import {
  claimExpiry,
  clusterExpiry,
  ENFORCE_POLICY_JOB,
  listPolicies,
  WARN_JOB,
  warningLeads,
  type ClaimLike,
  type Expiring,
  type WarnPayload,
} from '../services/expiry/index.js';
import { deterministicId } from '../services/schedules/index.js';

/** The shared service ports and where Beekeeper's own resources live. */
export type ExpiryTimersDeps = ServiceDeps & StateLocation;

export const warnJobId = (t: Omit<Expiring, 'setAtMs'>, lead: string) =>
  deterministicId('warn', t.kind === 'ClusterClaim' ? 'claim' : 'cd', t.hub, t.namespace, t.name, lead, t.expiresAtMs);

export function startExpiryTimers(deps: ExpiryTimersDeps): { close(): void; pending(): Record<string, string> } {
  const timers = new Map<string, { atMs: number; cancel: () => void }>();
  let closed = false;

  const enqueue = (type: string, payload: Record<string, unknown>, opts: { jobId?: string; dedupId?: string; hub: string }) =>
    deps.queue.enqueue(type, payload, opts).catch((err: unknown) => deps.log.error({ err, type }, 'cannot enqueue expiry job'));

  /** The target as the cache has it now (its annotations record what was already delivered). */
  const current = (t: Expiring): Expiring | undefined => {
    const ref = { hub: t.hub, namespace: t.namespace, name: t.name };
    if (t.kind === 'ClusterDeployment') {
      const cd = deps.store.cached<CdLike & KubeObject>('ClusterDeployment', ref);
      return cd && clusterExpiry(t.hub, cd);
    }
    const claim = deps.store.cached<ClaimLike>('ClusterClaim', ref);
    return claim && claimExpiry(t.hub, claim);
  };

  const track = (key: string, target: Expiring | undefined) => {
    const existing = timers.get(key);
    if (closed || !target) {
      existing?.cancel();
      timers.delete(key);
      return;
    }
    const now = deps.clock.now();
    const record = readWarningRecord(target.annotations, target.expiresAtMs);
    // A lead is done once its Event went out (the job records that first) or it was superseded.
    const plan = planWarnings(target.expiresAtMs, warningLeads(deps, target), now, (lead) => Boolean(record.sent[lead]?.['kubernetes-event'] || record.sent[lead]?.superseded), target.setAtMs);
    if (plan.due) {
      const payload: WarnPayload = {
        kind: target.kind,
        hub: target.hub,
        namespace: target.namespace,
        name: target.name,
        expiresAt: new Date(target.expiresAtMs).toISOString(),
        lead: plan.due.lead,
        superseded: plan.superseded.map((w) => w.lead),
      };
      void enqueue(WARN_JOB, { ...payload }, { jobId: warnJobId(target, plan.due.lead), hub: target.hub });
    }
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

  const enforce = (hub: string, cd: CdLike & KubeObject) => {
    if (cd.metadata.deletionTimestamp || isUnclaimedPoolCluster(cd)) return;
    const policies = listPolicies(deps).filter((p) => !p.spec.dryRun);
    if (policies.length === 0) return;
    const limits = effectiveLimits(policies, hub, cd);
    const created = Date.parse(cd.metadata.creationTimestamp ?? '');
    if (Number.isNaN(created) || !policyExpiry(clusterExpiry(hub, cd)?.expiresAtMs, created, deps.clock.now(), limits)) return;
    const ns = cd.metadata.namespace ?? '';
    void enqueue(ENFORCE_POLICY_JOB, { hub, namespace: ns, name: cd.metadata.name }, { dedupId: deterministicId('expiry-policy', hub, ns, cd.metadata.name), hub });
  };

  const onCluster = (hub: string, cd: CdLike & KubeObject, deleted: boolean) => {
    track(`cd/${hub}/${cd.metadata.namespace}/${cd.metadata.name}`, deleted ? undefined : clusterExpiry(hub, cd));
    if (!deleted) enforce(hub, cd);
  };
  const onClaim = (hub: string, claim: ClaimLike, deleted: boolean) =>
    track(`claim/${hub}/${claim.metadata.namespace}/${claim.metadata.name}`, deleted ? undefined : claimExpiry(hub, claim));
  const everything = () => {
    for (const { hub, object } of deps.store.cachedList<CdLike & KubeObject>('ClusterDeployment')) onCluster(hub, object, false);
    for (const { hub, object } of deps.store.cachedList<ClaimLike>('ClusterClaim')) onClaim(hub, object, false);
  };

  const unsubscribe = [
    deps.store.onChange<CdLike & KubeObject>('ClusterDeployment', (hub, type, obj) => onCluster(hub, obj, type === 'DELETED')),
    deps.store.onChange<ClaimLike>('ClusterClaim', (hub, type, obj) => onClaim(hub, obj, type === 'DELETED')),
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

