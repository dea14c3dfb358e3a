// GET /v1/warnings: every upcoming deletion with its warnings (delivered, superseded, next due), and clusters
// flagged for hibernating close to 90 days. Built from the informer cache and the annotations, so it shows
// what was delivered even after a Redis flush.
import { formatGoDuration } from '../../hive/duration.js';
import { hibernatingSinceMs, longHibernationFlag } from '../../hive/schedule/index.js';
import type { ExpiryServiceDeps } from './deps.js';
import { governance, listSchedules } from '../schedules/cluster-schedule.js';
import { claimExpiry, clusterExpiry, type Expiring } from './targets.js';
import { warningLeads, warningPlan } from './warning-plan.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Caller } from '../../auth/caller.js';
import { clusterTeamOf, sees } from '../team-scope.js';
import { expiringTeam } from './expiring-team.js';

export interface ExpiryWarningView {
  kind: Expiring['kind'];
  hub: string;
  namespace: string;
  name: string;
  cluster: Expiring['cluster'];
  expiresAt: string;
  leads: string[];
  /** Leads longer than the object had left when its expiry was set: never sent. */
  moot?: string[];
  /** Lead -> sink (webhook endpoint name, `kubernetes-event`, or `superseded`) -> when. */
  delivered: Record<string, Record<string, string>>;
  nextWarningAt?: string;
}

export interface LongHibernationView {
  hub: string;
  namespace: string;
  name: string;
  hibernatedDays: number;
  message: string;
}

export function allExpiring(deps: Pick<ExpiryServiceDeps, 'store'>): Expiring[] {
  const out: Expiring[] = [];
  for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    const e = clusterExpiry(hub, object);
    if (e) out.push(e);
  }
  for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) {
    const e = claimExpiry(hub, object);
    if (e) out.push(e);
  }
  return out;
}

/** `caller`: only what concerns clusters and claims of the caller's teams (platform admins: all). */
export function listWarnings(
  deps: ExpiryServiceDeps,
  caller: Caller,
): {
  expiry: ExpiryWarningView[];
  longHibernation: LongHibernationView[];
} {
  const now = deps.clock.now();
  const expiry = allExpiring(deps)
    .filter((t) => t.expiresAtMs > now && sees(caller, expiringTeam(deps, t)))
    .map((t): ExpiryWarningView => {
      const leads = warningLeads(deps, t);
      const plan = warningPlan(deps, t, now);
      const record = plan.record;
      const nextAt = plan.due ? plan.due.dueAtMs : plan.nextAtMs;
      return {
        kind: t.kind,
        hub: t.hub,
        namespace: t.namespace,
        name: t.name,
        cluster: t.cluster,
        expiresAt: new Date(t.expiresAtMs).toISOString(),
        leads: leads.map(formatGoDuration),
        ...(plan.moot.length > 0 ? { moot: plan.moot } : {}),
        delivered: record.sent,
        ...(nextAt !== undefined ? { nextWarningAt: new Date(nextAt).toISOString() } : {}),
      };
    })
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
  const longHibernation: LongHibernationView[] = [];
  const schedules = listSchedules(deps);
  for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
    const flag = longHibernationFlag(hibernatingSinceMs(object), now);
    // A schedule may lift the flag for its clusters, with a recorded reason (safety.ignoreLongHibernation).
    if (flag && governance(deps, schedules, hub, object).schedule?.spec.safety?.ignoreLongHibernation) continue;
    if (flag && sees(caller, clusterTeamOf(deps, hub, object)))
      longHibernation.push({ hub, namespace: object.metadata.namespace ?? '', name: object.metadata.name, ...flag });
  }
  return { expiry, longHibernation };
}
