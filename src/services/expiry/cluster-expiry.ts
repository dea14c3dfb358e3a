// A cluster's expiry: read it, extend it (capped by policy), and impose a policy's default or cap. Every change
// writes Hive's delete-after (so Hive enforces it even with Beekeeper down) and is recorded the one way every
// expiry change is (cluster-expiry-write.ts, expiry-record.ts): the history annotation, an audit line, an Event.
import { ANNOTATIONS } from '../../hive/constants.js';
import { formatGoDuration } from '../../hive/duration.js';
import { NotFound, invalid } from '../../hive/errors.js';
import {
  effectiveLimits,
  extendedExpiry,
  policyExpiry,
  readHistory,
  type EffectiveLimits,
  type ExpiryHistoryEntry,
  type ExtensionRequest,
} from '../../hive/expiry/index.js';
import { isUnclaimedPoolCluster } from '../../hive/schedule/index.js';
import { relocatingMessage } from '../../hive/relocation-marks.js';
import type { ObjectRef } from '../ports.js';
import { writeClusterExpiry } from './cluster-expiry-write.js';
import type { ExpiryServiceDeps } from './deps.js';
import { requestActor, SCHEDULER, type AuditOrigin } from './expiry-record.js';
import { enforcedPolicies } from './policy-store.js';
import { clusterExpiry } from './targets.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { clusterTeamOf } from '../team-scope.js';

type Cd = ClusterDeployment;

export interface ExpiryView {
  cluster: { hub: string; namespace: string; name: string };
  createdAt?: string;
  deleteAfter?: string;
  expiresAt?: string;
  limits: {
    maxLifetime?: string;
    latestAllowed?: string;
    defaultLifetime?: string;
    warnings: string[];
    policies: string[];
  };
  history: ExpiryHistoryEntry[];
}

/** Who asks and why: `by` defaults to the API token's holder; an extension must say why. */
export interface Actor {
  by?: string;
  reason: string;
}

export function createClusterExpiry(deps: ExpiryServiceDeps) {
  const load = async (ref: ObjectRef): Promise<Cd> => {
    // Live, not cached: the write is conditional on this version, and the cache may lag a moment.
    const cd = await deps.store.get<Cd>('ClusterDeployment', ref);
    if (!cd) throw new NotFound(`cluster ${ref.hub}/${ref.namespace}/${ref.name} not found`);
    return cd;
  };
  // Dry-run policies are shown, never applied: they neither cap an extension nor set warning lead times.
  const limitsOf = (ref: ObjectRef, cd: Cd): EffectiveLimits =>
    effectiveLimits(enforcedPolicies(deps), ref.hub, cd, clusterTeamOf(deps, ref.hub, cd));
  const createdMs = (cd: Cd) => Date.parse(cd.metadata.creationTimestamp ?? '');

  const view = (ref: ObjectRef, cd: Cd): ExpiryView => {
    const limits = limitsOf(ref, cd);
    const exp = clusterExpiry(ref.hub, cd);
    const created = createdMs(cd);
    return {
      cluster: { hub: ref.hub, namespace: ref.namespace ?? '', name: ref.name },
      ...(cd.metadata.creationTimestamp ? { createdAt: cd.metadata.creationTimestamp } : {}),
      ...(cd.metadata.annotations?.[ANNOTATIONS.deleteAfter]
        ? { deleteAfter: cd.metadata.annotations[ANNOTATIONS.deleteAfter] }
        : {}),
      ...(exp ? { expiresAt: new Date(exp.expiresAtMs).toISOString() } : {}),
      limits: {
        ...(limits.maxLifetimeMs !== undefined
          ? {
              maxLifetime: formatGoDuration(limits.maxLifetimeMs),
              latestAllowed: new Date(created + limits.maxLifetimeMs).toISOString(),
            }
          : {}),
        ...(limits.defaultLifetimeMs !== undefined
          ? { defaultLifetime: formatGoDuration(limits.defaultLifetimeMs) }
          : {}),
        warnings: limits.warningLeadsMs.map(formatGoDuration),
        policies: limits.policies,
      },
      history: readHistory(cd.metadata.annotations),
    };
  };

  return {
    async get(ref: ObjectRef): Promise<ExpiryView> {
      return view(ref, await load(ref));
    },

    async extend(ref: ObjectRef, req: ExtensionRequest & Actor, origin: AuditOrigin): Promise<ExpiryView> {
      if (typeof req.reason !== 'string' || req.reason.trim() === '')
        throw invalid('reason', 'say why (it is recorded)');
      const { cd } = await writeClusterExpiry(
        deps,
        ref,
        await load(ref),
        (cd) => {
          const current = clusterExpiry(ref.hub, cd);
          if (!current)
            throw invalid('extendBy', 'the cluster has no expiry to extend; set one first (PUT .../expiry)');
          const atMs = extendedExpiry(req, current.expiresAtMs, deps.clock.now(), createdMs(cd), limitsOf(ref, cd));
          // The team's maxLifetimeHours, counted from creation as Hive counts delete-after.
          deps.quotas?.admitClusterLifetime(ref.hub, cd, atMs - (createdMs(cd) || deps.clock.now()));
          return { atMs };
        },
        requestActor(origin, req),
      );
      return view(ref, cd);
    },

    /**
     * Impose the policy's default or cap on one cluster (never on unclaimed pool clusters: the pool owns them),
     * recorded as `by: policy/<name>` through `origin` (the timers, or the caller of a sweep).
     */
    async enforcePolicy(
      ref: ObjectRef,
      opts: { dryRun?: boolean; origin?: AuditOrigin } = {},
    ): Promise<{ outcome: 'none' | 'default' | 'cap'; expiresAt?: string }> {
      const cached = deps.store.cached<Cd>('ClusterDeployment', ref);
      if (!cached) return { outcome: 'none' };
      let policy: string | undefined;
      const decide = (cd: Cd) => {
        // A cluster a relocation is moving: the copy may already be made, a write here would not reach it; the
        // destination hub's timers impose the policy once it has arrived.
        if (cd.metadata.deletionTimestamp || isUnclaimedPoolCluster(cd) || relocatingMessage(cd)) return undefined;
        const limits = limitsOf(ref, cd);
        const change = policyExpiry(clusterExpiry(ref.hub, cd)?.expiresAtMs, createdMs(cd), deps.clock.now(), limits);
        if (!change) return undefined;
        policy = change.why === 'cap' ? limits.maxFrom : (limits.defaultFrom ?? limits.maxFrom);
        const reason =
          change.why === 'cap' ? 'longer than the policy maximum lifetime' : 'no expiry set; policy default lifetime';
        return { atMs: change.atMs, action: change.why, by: `policy/${policy}`, reason };
      };
      if (opts.dryRun) {
        const d = decide(cached);
        return d ? { outcome: d.action, expiresAt: new Date(d.atMs).toISOString() } : { outcome: 'none' };
      }
      const origin = opts.origin ?? SCHEDULER;
      const { entry } = await writeClusterExpiry(deps, ref, cached, decide, {
        by: 'policy',
        via: origin.via,
        ...(origin.principal ? { principal: origin.principal } : {}),
      });
      if (!entry || (entry.action !== 'default' && entry.action !== 'cap')) return { outcome: 'none' };
      const expiresAt = entry.to!;
      if (policy) {
        const lastApplied = {
          at: entry.at,
          cluster: `${ref.hub}/${ref.namespace}/${ref.name}`,
          action: entry.action,
          expiresAt,
        };
        await deps.store
          .mergePatch(
            'ExpiryPolicy',
            { hub: deps.stateHub, namespace: deps.stateNamespace, name: policy },
            { status: { lastApplied } },
            { subresource: 'status' },
          )
          .catch((err: unknown) => deps.log.warn({ err, policy }, 'cannot record policy status'));
      }
      return { outcome: entry.action, expiresAt };
    },
  };
}
