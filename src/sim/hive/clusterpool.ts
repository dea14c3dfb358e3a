import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, F, L, hasFinalizer, isDeleting, splitKey } from './context.js';
import { type Condition, initConditions, setCondition } from './conditions.js';
import { type PoolCollection, byAge, collectPoolCds, resumeDeadline } from './pool-collection.js';
import { soonest } from './controller.js';
import { createPoolCluster, missingDependencies, poolSpecHash } from './pool-builder.js';
import { toTime } from './go-values.js';
import { reconcilePoolAdminRbac } from './pool-admin-rbac.js';
import { allClustersCurrent, statusCounts } from './pool-status.js';
import { addFinalizer, ensureDeleted, removeFinalizer, writeObject, writeStatus } from './writes.js';

const POOL_CONDITIONS = [
  'MissingDependencies',
  'CapacityAvailable',
  'AllClustersCurrent',
  'InventoryValid',
  'DeletionPossible',
];
const RECHECK_MS = 2000;

export const poolCds = (ctx: HiveContext, pool: Obj): Obj[] =>
  ctx.informers.clusterDeployments
    .list()
    .filter(
      (cd) =>
        cd.metadata.labels?.[L.poolName] === pool.metadata.name &&
        cd.metadata.labels?.[L.poolNamespace] === pool.metadata.namespace,
    );

export const poolClaims = (ctx: HiveContext, pool: Obj): Obj[] =>
  ctx.informers.clusterClaims
    .list(pool.metadata.namespace)
    .filter((c) => c.spec?.clusterPoolName === pool.metadata.name);

/** pkg/controller/clusterpool Reconcile, with the capacity and drift arithmetic of REFERENCE §4.3. */
export async function reconcileClusterPool(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const pool = ctx.informers.clusterPools.get(ns, name);
  if (!pool) return;
  const now = ctx.clock.now();
  const hash = poolSpecHash(pool);
  const cds = collectPoolCds(poolCds(ctx, pool), pool, hash, now);
  let conditions = initConditions(pool.status?.conditions, POOL_CONDITIONS, now);

  if (isDeleting(pool)) return reconcileDeletedPool(ctx, pool, cds, conditions);
  if (!hasFinalizer(pool, F.clusters)) {
    await addFinalizer(ctx, R.clusterPool, pool, F.clusters);
    return;
  }

  // Pools on platforms without hibernation must keep every cluster running (createCloudBuilder).
  const p = pool.spec.platform ?? {};
  if ((p.openstack || p.vsphere) && (pool.spec.runningCount ?? 0) !== pool.spec.size) {
    throw new Error(`ClusterPool ${key}: runningCount must equal size on platforms that cannot hibernate`);
  }

  const claims = poolClaims(ctx, pool)
    .filter((c) => !isDeleting(c))
    .sort(byAge);
  await syncClusterDeploymentAssignments(ctx, claims, cds);
  let pending = claims.filter((c) => !c.spec?.namespace);
  pending = await assignClustersToClaims(ctx, pending, cds);

  const max = pool.spec.maxSize;
  const availableCapacity = max === undefined || max === null ? Infinity : max - cds.all.length;
  const maxConcurrent = pool.spec.maxConcurrent;
  let availableCurrent =
    maxConcurrent === undefined || maxConcurrent === null
      ? Infinity
      : maxConcurrent - cds.installing.length - cds.deleting.length;

  // Marked for removal (deleted claims) go first, within maxConcurrent.
  for (const cd of cds.markedForRemoval) {
    if (availableCurrent <= 0) break;
    await deleteCd(ctx, cds, cd, 'marked for removal');
    availableCurrent--;
  }

  const drift = cds.unassigned.length - pool.spec.size - pending.length;
  let missing: string[] = [];
  let checked = false;
  if (availableCurrent <= 0) {
    // at the concurrency limit: nothing this round
  } else if (drift < 0 && availableCapacity > 0) {
    missing = await missingDependencies(ctx, pool);
    checked = true;
    if (missing.length === 0) {
      const n = Math.min(-drift, availableCapacity, availableCurrent);
      for (let i = 0; i < n; i++) {
        const cdName = await createPoolCluster(ctx, pool, hash);
        ctx.log({ hub: ctx.hub, pool: key, cd: cdName }, 'pool cluster created');
      }
    }
  } else if (cds.broken.length > 0) {
    for (const cd of cds.broken.slice(0, availableCurrent)) await deleteCd(ctx, cds, cd, 'broken');
  } else if (drift > 0) {
    const excess = [...[...cds.installing].reverse(), ...cds.standby, ...cds.ready].slice(
      0,
      Math.min(drift, availableCurrent),
    );
    for (const cd of excess) await deleteCd(ctx, cds, cd, 'excess');
  } else if (drift === 0 && cds.installing.length === 0 && cds.stale.length > 0) {
    const unknown = cds.stale.filter((cd) => !cd.metadata.annotations?.[A.poolSpecHash]);
    await deleteCd(ctx, cds, unknown[0] ?? cds.stale[0]!, 'stale');
  }

  await reconcileRunningClusters(ctx, pool, cds, pending.length);
  await reconcilePoolAdminRbac(ctx, pool);

  // Hive checks (and reports) dependencies only when it is about to add clusters (addClusters).
  if (checked) {
    conditions = setCondition(
      conditions,
      'MissingDependencies',
      missing.length ? 'True' : 'False',
      missing.length ? 'Missing' : 'Verified',
      missing.length === 0 ? 'Dependencies verified' : missing.length === 1 ? missing[0]! : `[${missing.join(', ')}]`,
      now,
    );
  }
  conditions = setCondition(
    conditions,
    'CapacityAvailable',
    availableCapacity > 0 ? 'True' : 'False',
    availableCapacity > 0 ? 'Available' : 'MaxCapacity',
    availableCapacity > 0
      ? 'There is capacity to add more clusters to the pool.'
      : `Pool is at maximum capacity of ${max} waiting and claimed clusters.`,
    now,
  );
  conditions = allClustersCurrent(conditions, cds, now);
  await writeStatus(ctx, R.clusterPool, pool, { ...pool.status, ...statusCounts(cds), conditions });
  // Look again when a resuming cluster would pass resumeTimeout, so it is replaced even if nothing else changes.
  const deadlines = cds.unassigned
    .map((cd) => resumeDeadline(cd, pool, now))
    .filter((d): d is number => d !== undefined && d >= 0);
  return soonest(
    missing.length ? { requeueAfter: RECHECK_MS } : undefined,
    ...deadlines.map((d) => ({ requeueAfter: d + 1 })),
  );
}

/**
 * assignClustersToClaims: FIFO by claim age onto the oldest Running unclaimed CD; the claim is written first,
 * then the CD. Returns the claims still waiting.
 */
async function assignClustersToClaims(ctx: HiveContext, pending: Obj[], cds: PoolCollection): Promise<Obj[]> {
  const now = ctx.clock.now();
  const waiting: Obj[] = [];
  for (const claim of pending) {
    const cd = cds.ready.shift();
    if (!cd) {
      waiting.push(claim);
      const conditions = setCondition(
        initConditions(claim.status?.conditions, ['Pending', 'ClusterRunning'], now),
        'Pending',
        'True',
        'NoClusters',
        'No clusters in pool are ready to be claimed',
        now,
      );
      await writeStatus(ctx, R.clusterClaim, claim, { ...claim.status, conditions });
      continue;
    }
    const updated = await ctx.client.update(R.clusterClaim, {
      ...claim,
      spec: { ...claim.spec, namespace: cd.metadata.namespace },
    });
    const conditions = setCondition(
      initConditions(updated.status?.conditions, ['Pending', 'ClusterRunning'], now),
      'Pending',
      'True',
      'ClusterAssigned',
      'Cluster assigned to ClusterClaim, awaiting claim',
      now,
    );
    await ctx.client.updateStatus(R.clusterClaim, { ...updated, status: { ...updated.status, conditions } });
    await assignCd(ctx, cds, cd, claim);
    ctx.log(
      { hub: ctx.hub, claim: `${claim.metadata.namespace}/${claim.metadata.name}`, cd: cd.metadata.name },
      'claim assigned',
    );
  }
  return waiting;
}

/**
 * SyncClusterDeploymentAssignments: a claim whose spec.namespace names one of our CDs that does not name it back
 * (the CD write after the claim write was lost) gets the CD side written now, by the pool controller; the claim
 * controller only waits. Only an assignable (installed, Running) CD is written; otherwise it is held back from
 * assignment this round. CDs claimed by someone else are the claim controller's AssignmentConflict.
 */
async function syncClusterDeploymentAssignments(ctx: HiveContext, claims: Obj[], cds: PoolCollection) {
  for (const claim of claims) {
    const cdName = claim.spec?.namespace;
    if (!cdName) continue;
    const cd = cds.all.find((c) => c.metadata.name === cdName);
    if (!cd || cd.spec.clusterPoolRef?.claimName) continue;
    if (cds.ready.includes(cd)) await assignCd(ctx, cds, cd, claim);
    else cds.ready = cds.ready.filter((c) => c !== cd); // MakeNotAssignable
  }
}

/** cdCollection.Assign: claimName, claimedTimestamp and spec.powerState=Running on the CD. */
async function assignCd(ctx: HiveContext, cds: PoolCollection, cd: Obj, claim: Obj) {
  await ctx.client.update(R.clusterDeployment, {
    ...cd,
    spec: {
      ...cd.spec,
      powerState: 'Running',
      clusterPoolRef: {
        ...cd.spec.clusterPoolRef,
        claimName: claim.metadata.name,
        claimedTimestamp: toTime(ctx.clock.now()),
      },
    },
  });
  cds.unassigned = cds.unassigned.filter((c) => c !== cd);
  cds.ready = cds.ready.filter((c) => c !== cd);
}

/** The oldest runningCount + waiting-claims unassigned, non-broken CDs run; the rest hibernate. */
async function reconcileRunningClusters(ctx: HiveContext, pool: Obj, cds: PoolCollection, waitingClaims: number) {
  const candidates = cds.unassigned.filter((cd) => !cds.broken.includes(cd)).sort(byAge);
  const running = (pool.spec.runningCount ?? 0) + waitingClaims;
  for (const [i, cd] of candidates.entries()) {
    // No exception for CDs that cannot hibernate: Hive writes Hibernating and the hibernation controller keeps
    // reporting Unsupported/Running (pools on OpenStack/vSphere must set runningCount == size instead).
    const powerState = i < running ? 'Running' : 'Hibernating';
    if (cd.spec.powerState === powerState) continue;
    await writeObject(ctx, R.clusterDeployment, cd, { ...cd, spec: { ...cd.spec, powerState } });
  }
}

/** cdCollection.Delete: the CD also leaves the unassigned and stale buckets, so later steps of this pass skip it. */
async function deleteCd(ctx: HiveContext, cds: PoolCollection, cd: Obj, why: string) {
  ctx.log({ hub: ctx.hub, cd: `${cd.metadata.namespace}/${cd.metadata.name}`, why }, 'deleting pool cluster');
  try {
    await ensureDeleted(ctx, R.clusterDeployment, cd.metadata.namespace, cd.metadata.name);
  } catch (e: any) {
    // e.g. protected-delete: the webhook refuses, as it would refuse Hive.
    ctx.log({ hub: ctx.hub, cd: cd.metadata.name, err: String(e?.message ?? e) }, 'pool cluster delete refused');
    return;
  }
  cds.unassigned = cds.unassigned.filter((c) => c !== cd);
  cds.stale = cds.stale.filter((c) => c !== cd);
}

/** reconcileDeletedPool: unclaimed and marked CDs go; claimed ones stay; the finalizer holds until all are gone. */
async function reconcileDeletedPool(ctx: HiveContext, pool: Obj, cds: PoolCollection, conditions: Condition[]) {
  const now = ctx.clock.now();
  const maxConcurrent = pool.spec.maxConcurrent;
  let available =
    maxConcurrent === undefined || maxConcurrent === null
      ? Infinity
      : maxConcurrent - cds.installing.length - cds.deleting.length;
  for (const cd of [...cds.markedForRemoval, ...cds.unassigned]) {
    if (available-- <= 0) break;
    await deleteCd(ctx, cds, cd, 'pool deleted');
  }
  // setDeletionPossibleCondition and setStatusCounts, written before the finalizer decision.
  conditions =
    cds.all.length > 0
      ? setCondition(
          conditions,
          'DeletionPossible',
          'False',
          'ClusterDeploymentsPendingCleanup',
          `The following ClusterDeployments are pending cleanup: ${cds.all
            .map((c) => c.metadata.name)
            .sort()
            .join(', ')}`,
          now,
        )
      : setCondition(
          conditions,
          'DeletionPossible',
          'True',
          'DeletionPossible',
          'No ClusterDeployments pending cleanup',
          now,
        );
  if (await writeStatus(ctx, R.clusterPool, pool, { ...pool.status, ...statusCounts(cds), conditions })) return;
  if (cds.all.length > 0) return;
  if (hasFinalizer(pool, F.clusters)) await removeFinalizer(ctx, R.clusterPool, pool, F.clusters);
}
