import { R, type ReconcileResult, type ApiResource } from '../client/index.js';
import { type HiveContext, type Obj, A, F, clone, hasFinalizer, isDeleting, splitKey } from './context.js';
import { findCondition, initConditions, setCondition } from './conditions.js';
import { formatGoDuration, fromTime, parseGoDuration } from './go-values.js';
import { isMarkedForRemoval } from './pool-collection.js';
import { addFinalizer, ensureDeleted, removeFinalizer, writeObject, writeStatus } from './writes.js';

const OWNER = 'hive-claim-owner';

/** pkg/controller/clusterclaim (REFERENCE §5). */
export async function reconcileClusterClaim(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const claim = ctx.informers.clusterClaims.get(ns, name);
  if (!claim) return;
  const now = ctx.clock.now();
  const status = clone(claim.status ?? {});
  status.conditions = initConditions(status.conditions, ['Pending', 'ClusterRunning'], now);
  if (await writeStatus(ctx, R.clusterClaim, claim, status)) return;

  if (isDeleting(claim)) return reconcileDeletedClaim(ctx, claim);
  if (!hasFinalizer(claim, F.claim)) {
    await addFinalizer(ctx, R.clusterClaim, claim, F.claim);
    return;
  }

  const cdNs: string | undefined = claim.spec?.namespace;
  if (!cdNs) return; // unassigned: the pool controller reports NoClusters

  const lifetime = claimLifetime(ctx, claim);
  if (lifetime !== undefined) status.lifetime = formatGoDuration(lifetime);
  else delete status.lifetime;
  if (await writeStatus(ctx, R.clusterClaim, claim, status)) return;
  let expiry: ReconcileResult | undefined;
  const pending = findCondition(status.conditions, 'Pending');
  if (lifetime !== undefined && pending?.status === 'False') {
    // The clock starts when Pending turned False (claimed), not when the cluster became Running.
    const left = (fromTime(pending.lastTransitionTime) ?? now) + lifetime - now;
    if (left <= 0) {
      ctx.log({ hub: ctx.hub, claim: key, lifetime: status.lifetime }, 'claim lifetime expired, deleting claim');
      await ctx.client.delete(R.clusterClaim, ns, name);
      return;
    }
    expiry = { requeueAfter: left };
  }

  const cd = ctx.informers.clusterDeployments.get(cdNs, cdNs);
  if (!cd) {
    status.conditions = setCondition(
      status.conditions,
      'ClusterRunning',
      'False',
      'ClusterDeleted',
      'Assigned cluster has been deleted',
      now,
    );
    await writeStatus(ctx, R.clusterClaim, claim, status);
    return expiry;
  }
  if (isDeleting(cd) || isMarkedForRemoval(cd)) {
    status.conditions = setCondition(
      status.conditions,
      'ClusterRunning',
      'False',
      'ClusterDeleting',
      'Assigned cluster has been marked for deletion',
      now,
    );
    await writeStatus(ctx, R.clusterClaim, claim, status);
    return expiry;
  }

  const claimedBy = cd.spec?.clusterPoolRef?.claimName;
  if (claimedBy && claimedBy !== name) {
    status.conditions = setCondition(
      status.conditions,
      'Pending',
      'True',
      'AssignmentConflict',
      'Assigned cluster was claimed by a different ClusterClaim',
      now,
    );
    await writeStatus(ctx, R.clusterClaim, claim, status);
    await ctx.client.update(R.clusterClaim, { ...claim, spec: { ...claim.spec, namespace: undefined } });
    return;
  }
  // The pool wrote the claim but not yet the CD: Hive's claim controller only waits (the pool controller's
  // SyncClusterDeploymentAssignments writes the CD side); the CD's update event brings us back.
  if (!claimedBy) return expiry;

  // RBAC first, so a claimant who sees ClusterClaimed can already read the cluster's Secrets.
  await ensureRbac(ctx, claim, cd);
  status.conditions = setCondition(status.conditions, 'Pending', 'False', 'ClusterClaimed', 'Cluster claimed', now);
  status.conditions =
    cd.status?.powerState === 'Running'
      ? setCondition(status.conditions, 'ClusterRunning', 'True', 'Running', 'Cluster is running', now)
      : setCondition(
          status.conditions,
          'ClusterRunning',
          'False',
          'Resuming',
          'Waiting for cluster to be running',
          now,
        );
  if (await writeStatus(ctx, R.clusterClaim, claim, status)) return;
  return expiry;
}

/** getClaimLifetime: spec.lifetime, else the pool default; capped at the pool maximum (which alone also applies). */
function claimLifetime(ctx: HiveContext, claim: Obj): number | undefined {
  const pool = ctx.informers.clusterPools.get(claim.metadata.namespace, claim.spec?.clusterPoolName);
  const cfg = pool?.spec?.claimLifetime ?? {};
  const parse = (v: string | undefined) => {
    if (!v) return undefined;
    try {
      return parseGoDuration(v);
    } catch {
      return undefined;
    }
  };
  let lifetime = parse(claim.spec?.lifetime) ?? parse(cfg.default);
  const max = parse(cfg.maximum);
  if (max !== undefined && (lifetime === undefined || lifetime > max)) lifetime = max;
  return lifetime;
}

/** Role and RoleBinding `hive-claim-owner` in the cluster namespace, kept in sync with spec.subjects. */
async function ensureRbac(ctx: HiveContext, claim: Obj, cd: Obj) {
  const ns = cd.metadata.namespace;
  const subjects = claim.spec?.subjects ?? [];
  if (subjects.length === 0) return;
  const m = cd.spec.clusterMetadata ?? {};
  const secretNames = [
    m.adminKubeconfigSecretRef?.name,
    m.adminPasswordSecretRef?.name,
    m.metadataJSONSecretRef?.name,
  ].filter(Boolean);
  const rules = [
    { apiGroups: ['hive.openshift.io'], resources: ['*'], verbs: ['*'] },
    { apiGroups: [''], resources: ['secrets'], resourceNames: secretNames, verbs: ['get'] },
  ];
  await upsert(ctx, R.role, ns, { metadata: { name: OWNER, namespace: ns }, rules });
  await upsert(ctx, R.roleBinding, ns, {
    metadata: { name: OWNER, namespace: ns },
    subjects,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: OWNER },
  });
}

async function upsert(ctx: HiveContext, r: ApiResource, ns: string, desired: Obj) {
  const existing = await ctx.client.tryGet(r, ns, desired.metadata.name);
  if (!existing) return void (await ctx.client.create(r, desired));
  const { metadata: _m, ...rest } = desired;
  await writeObject(ctx, r, existing, { ...existing, ...rest });
}

/**
 * Deletion (cleanupResources): only a CD that names this claim is cleaned up: its hive-claim-owner RoleBinding and
 * Role are deleted and it is marked remove-cluster-from-pool. The finalizer goes once that CD is gone (its namespace,
 * and the RBAC in it, go with it), or at once when the CD never named this claim, so the RBAC of another claim on
 * the same cluster is never touched.
 */
async function reconcileDeletedClaim(ctx: HiveContext, claim: Obj): Promise<ReconcileResult | void> {
  if (!hasFinalizer(claim, F.claim)) return;
  const cdNs: string | undefined = claim.spec?.namespace;
  const cd = cdNs ? ctx.informers.clusterDeployments.get(cdNs, cdNs) : undefined;
  const ref = cd?.spec?.clusterPoolRef;
  if (cd && ref?.namespace === claim.metadata.namespace && ref?.claimName === claim.metadata.name) {
    await ensureDeleted(ctx, R.roleBinding, cdNs, OWNER);
    await ensureDeleted(ctx, R.role, cdNs, OWNER);
    if (!isMarkedForRemoval(cd) && !isDeleting(cd)) {
      await writeObject(ctx, R.clusterDeployment, cd, {
        ...cd,
        metadata: { ...cd.metadata, annotations: { ...(cd.metadata.annotations ?? {}), [A.removeFromPool]: 'true' } },
      });
    }
    return; // the CD's deletion event brings us back
  }
  await removeFinalizer(ctx, R.clusterClaim, claim, F.claim);
}
