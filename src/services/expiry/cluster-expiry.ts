// A cluster's expiry: read it, set it, extend it (capped by policy), and impose a policy's default or cap. Every
// change writes Hive's delete-after (so Hive enforces it even with Beekeeper down) and is audited three ways: a
// Kubernetes Event on the cluster, a structured log line, and the bounded history annotation on the cluster.
import { ANNOTATIONS } from '../../hive/constants.js';
import { deleteAfterFor } from '../../hive/delete-after.js';
import { formatGoDuration } from '../../hive/duration.js';
import { NotFound, invalid } from '../../hive/errors.js';
import {
  appendHistory,
  effectiveLimits,
  EXPIRY_HISTORY_ANNOTATION,
  extendedExpiry,
  policyExpiry,
  readHistory,
  type EffectiveLimits,
  type ExpiryHistoryEntry,
  type ExtensionRequest,
} from '../../hive/expiry/index.js';
import { isUnclaimedPoolCluster, type CdLike } from '../../hive/schedule/index.js';
import type { KubeObject, ObjectRef } from '../ports.js';
import type { ExpiryServiceDeps } from './deps.js';
import { enforcedPolicies } from './policy-store.js';
import { clusterExpiry } from './targets.js';

type Cd = CdLike & KubeObject;

export interface ExpiryView {
  cluster: { hub: string; namespace: string; name: string };
  createdAt?: string;
  deleteAfter?: string;
  expiresAt?: string;
  limits: { maxLifetime?: string; latestAllowed?: string; defaultLifetime?: string; warnings: string[]; policies: string[] };
  history: ExpiryHistoryEntry[];
}

export interface Actor {
  by: string;
  reason: string;
}

function requireActor(a: Partial<Actor>): Actor {
  if (typeof a.by !== 'string' || a.by.trim() === '') throw invalid('by', 'say who makes the change (it is audited)');
  if (typeof a.reason !== 'string' || a.reason.trim() === '') throw invalid('reason', 'say why (it is audited)');
  return { by: a.by, reason: a.reason };
}

export function createClusterExpiry(deps: ExpiryServiceDeps) {
  const load = async (ref: ObjectRef): Promise<Cd> => {
    // Live, not cached: the write below is conditional on this version, and the cache may lag a moment.
    const cd = await deps.store.get<Cd>('ClusterDeployment', ref);
    if (!cd) throw new NotFound(`cluster ${ref.hub}/${ref.namespace}/${ref.name} not found`);
    return cd;
  };
  // Dry-run policies are shown, never applied: they neither cap an extension nor set warning lead times.
  const limitsOf = (ref: ObjectRef, cd: Cd): EffectiveLimits => effectiveLimits(enforcedPolicies(deps), ref.hub, cd);
  const createdMs = (cd: Cd) => Date.parse(cd.metadata.creationTimestamp ?? '');

  const view = (ref: ObjectRef, cd: Cd): ExpiryView => {
    const limits = limitsOf(ref, cd);
    const exp = clusterExpiry(ref.hub, cd);
    const created = createdMs(cd);
    return {
      cluster: { hub: ref.hub, namespace: ref.namespace ?? '', name: ref.name },
      ...(cd.metadata.creationTimestamp ? { createdAt: cd.metadata.creationTimestamp } : {}),
      ...(cd.metadata.annotations?.[ANNOTATIONS.deleteAfter] ? { deleteAfter: cd.metadata.annotations[ANNOTATIONS.deleteAfter] } : {}),
      ...(exp ? { expiresAt: new Date(exp.expiresAtMs).toISOString() } : {}),
      limits: {
        ...(limits.maxLifetimeMs !== undefined ? { maxLifetime: formatGoDuration(limits.maxLifetimeMs), latestAllowed: new Date(created + limits.maxLifetimeMs).toISOString() } : {}),
        ...(limits.defaultLifetimeMs !== undefined ? { defaultLifetime: formatGoDuration(limits.defaultLifetimeMs) } : {}),
        warnings: limits.warningLeadsMs.map(formatGoDuration),
        policies: limits.policies,
      },
      history: readHistory(cd.metadata.annotations),
    };
  };

  const write = async (ref: ObjectRef, cd: Cd, atMs: number, entry: Omit<ExpiryHistoryEntry, 'at' | 'to' | 'from'>): Promise<ExpiryView> => {
    const now = new Date(deps.clock.now()).toISOString();
    const current = clusterExpiry(ref.hub, cd);
    const to = new Date(atMs).toISOString();
    const full: ExpiryHistoryEntry = { at: now, ...entry, ...(current ? { from: new Date(current.expiresAtMs).toISOString() } : {}), to };
    const deleteAfter = deleteAfterFor(cd.metadata.creationTimestamp ?? '', new Date(atMs));
    const patched = await deps.store.mergePatch<Cd>(
      'ClusterDeployment',
      ref,
      { metadata: { annotations: { [ANNOTATIONS.deleteAfter]: deleteAfter, [EXPIRY_HISTORY_ANNOTATION]: appendHistory(cd.metadata.annotations, full) } } },
      { resourceVersion: cd.metadata.resourceVersion },
    );
    deps.log.info({ audit: 'expiry', hub: ref.hub, namespace: ref.namespace, name: ref.name, ...full, deleteAfter }, `expiry ${entry.action}`);
    await deps.store.recordEvent('ClusterDeployment', ref, {
      type: 'Normal',
      reason: entry.action === 'extend' ? 'ExpiryExtended' : entry.action === 'cap' ? 'ExpiryCapped' : 'ExpirySet',
      action: 'SetExpiry',
      message: `Expiry ${full.from ? `${full.from} -> ` : ''}${to} (${ANNOTATIONS.deleteAfter}=${deleteAfter}) by ${entry.by}: ${entry.reason}`,
    });
    return view(ref, patched);
  };

  return {
    async get(ref: ObjectRef): Promise<ExpiryView> {
      return view(ref, await load(ref));
    },

    async extend(ref: ObjectRef, req: ExtensionRequest & Partial<Actor>): Promise<ExpiryView> {
      const actor = requireActor(req);
      const cd = await load(ref);
      const current = clusterExpiry(ref.hub, cd);
      if (!current) throw invalid('extendBy', 'the cluster has no expiry to extend; set one first (PUT .../expiry)');
      const atMs = extendedExpiry(req, current.expiresAtMs, deps.clock.now(), createdMs(cd), limitsOf(ref, cd));
      return write(ref, cd, atMs, { action: 'extend', ...actor });
    },

    /** Impose the policy's default or cap on one cluster (never on unclaimed pool clusters: the pool owns them). */
    async enforcePolicy(ref: ObjectRef, opts: { dryRun?: boolean } = {}): Promise<{ outcome: 'none' | 'default' | 'cap'; expiresAt?: string }> {
      const cd = deps.store.cached<Cd>('ClusterDeployment', ref);
      if (!cd || cd.metadata.deletionTimestamp || isUnclaimedPoolCluster(cd)) return { outcome: 'none' };
      const limits = limitsOf(ref, cd);
      const current = clusterExpiry(ref.hub, cd);
      const change = policyExpiry(current?.expiresAtMs, createdMs(cd), deps.clock.now(), limits);
      if (!change) return { outcome: 'none' };
      const expiresAt = new Date(change.atMs).toISOString();
      if (opts.dryRun) return { outcome: change.why, expiresAt };
      const policy = change.why === 'cap' ? limits.maxFrom : limits.defaultFrom ?? limits.maxFrom;
      await write(ref, cd, change.atMs, { action: change.why, by: `policy/${policy}`, reason: change.why === 'cap' ? 'longer than the policy maximum lifetime' : 'no expiry set; policy default lifetime' });
      if (policy) {
        const lastApplied = { at: new Date(deps.clock.now()).toISOString(), cluster: `${ref.hub}/${ref.namespace}/${ref.name}`, action: change.why, expiresAt };
        await deps.store
          .mergePatch('ExpiryPolicy', { hub: deps.stateHub, namespace: deps.stateNamespace, name: policy }, { status: { lastApplied } }, { subresource: 'status' })
          .catch((err: unknown) => deps.log.warn({ err, policy }, 'cannot record policy status'));
      }
      return { outcome: change.why, expiresAt };
    },
  };
}
