import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, F, L, hasFinalizer, isDeleting, splitKey } from './context.js';
import { type Condition, findCondition, initConditions, setCondition } from './conditions.js';
import { type PoolCollection, byAge, collectPoolCds, resumeDeadline } from './pool-collection.js';
import { soonest } from './controller.js';
import { createPoolCluster, missingDependencies, poolSpecHash } from './pool-builder.js';
import { toTime } from './go-values.js';
import { reconcilePoolAdminRbac } from './pool-admin-rbac.js';
import { addFinalizer, ensureDeleted, removeFinalizer, writeObject, writeStatus } from './writes.js';

const POOL_CONDITIONS = ['MissingDependencies', 'CapacityAvailable', 'AllClustersCurrent', 'InventoryValid', 'DeletionPossible'];
const RECHECK_MS = 2000;

export const poolCds = (ctx: HiveContext, pool: Obj): Obj[] =>
  ctx.informers.clusterDeployments.list().filter((cd) =>
    cd.metadata.labels?.[L.poolName] === pool.metadata.name && cd.metadata.labels?.[L.poolNamespace] === pool.metadata.namespace);

export const poolClaims = (ctx: HiveContext, pool: Obj): Obj[] =>
  ctx.informers.clusterClaims.list(pool.metadata.namespace).filter((c) => c.spec?.clusterPoolName === pool.metadata.name);

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

  const claims = poolClaims(ctx, pool).filter((c) => !isDeleting(c)).sort(byAge);
  let pending = claims.filter((c) => !c.spec?.namespace);
  pending = await assignClustersToClaims(ctx, pending, cds);

  const max = pool.spec.maxSize;
  const availableCapacity = max === undefined || max === null ? Infinity : max - cds.all.length;
  const maxConcurrent = pool.spec.maxConcurrent;
  let availableCurrent = maxConcurrent === undefined || maxConcurrent === null
    ? Infinity : maxConcurrent - cds.installing.length - cds.deleting.length;

  // Marked for removal (deleted claims) go first, within maxConcurrent.
  for (const cd of cds.markedForRemoval) {
    if (availableCurrent <= 0) break;
    await deleteCd(ctx, cd, 'marked for removal');
    availableCurrent--;
  }

  const drift = cds.unassigned.length - pool.spec.size - pending.length;
  let missing: string[] = [];
  if (availableCurrent <= 0) {
    // at the concurrency limit: nothing this round
  } else if (drift < 0 && availableCapacity > 0) {
    missing = await missingDependencies(ctx, pool);
    if (missing.length === 0) {
      const n = Math.min(-drift, availableCapacity, availableCurrent);
      for (let i = 0; i < n; i++) {
        const cdName = await createPoolCluster(ctx, pool, hash);
        ctx.log({ hub: ctx.hub, pool: key, cd: cdName }, 'pool cluster created');
      }
    }
  } else if (cds.broken.length > 0) {
    for (const cd of cds.broken.slice(0, availableCurrent)) await deleteCd(ctx, cd, 'broken');
  } else if (drift > 0) {
    const excess = [...[...cds.installing].reverse(), ...cds.standby, ...cds.ready].slice(0, Math.min(drift, availableCurrent));
    for (const cd of excess) await deleteCd(ctx, cd, 'excess');
  } else if (drift === 0 && cds.installing.length === 0 && cds.stale.length > 0) {
    const unknown = cds.stale.filter((cd) => !cd.metadata.annotations?.[A.poolSpecHash]);
    await deleteCd(ctx, unknown[0] ?? cds.stale[0]!, 'stale');
  }

  await reconcileRunningClusters(ctx, pool, cds, pending.length);
  await reconcilePoolAdminRbac(ctx, pool);

  conditions = setCondition(conditions, 'MissingDependencies', missing.length ? 'True' : 'False',
    missing.length ? 'Missing' : 'Verified',
    missing.length === 0 ? 'Dependencies verified' : missing.length === 1 ? missing[0]! : `[${missing.join(', ')}]`, now);
  conditions = setCondition(conditions, 'CapacityAvailable', availableCapacity > 0 ? 'True' : 'False',
    availableCapacity > 0 ? 'Available' : 'MaxCapacity',
    availableCapacity > 0 ? 'There is capacity to add more clusters to the pool.'
      : `Pool is at maximum capacity of ${max} waiting and claimed clusters.`, now);
  const unknownHash = cds.stale.some((cd) => !cd.metadata.annotations?.[A.poolSpecHash]);
  conditions = cds.stale.length === 0
    ? setCondition(conditions, 'AllClustersCurrent', 'True', 'ClusterDeploymentsCurrent', 'All unclaimed ClusterDeployments are current', now)
    : setCondition(conditions, 'AllClustersCurrent', unknownHash ? 'Unknown' : 'False',
      unknownHash ? 'SomeClusterDeploymentsUnknown' : 'SomeClusterDeploymentsStale',
      `Some unclaimed ClusterDeployments do not match the pool spec: ${cds.stale.map((c) => c.metadata.name).join(', ')}`, now);
  await writeStatus(ctx, R.clusterPool, pool, {
    ...pool.status, size: cds.unassigned.length, standby: cds.standby.length, ready: cds.ready.length, conditions,
  });
  // Look again when a resuming cluster would pass resumeTimeout, so it is replaced even if nothing else changes.
  const deadlines = cds.unassigned.map((cd) => resumeDeadline(cd, pool, now)).filter((d): d is number => d !== undefined && d >= 0);
  return soonest(missing.length ? { requeueAfter: RECHECK_MS } : undefined, ...deadlines.map((d) => ({ requeueAfter: d + 1 })));
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
      const conditions = setCondition(initConditions(claim.status?.conditions, ['Pending', 'ClusterRunning'], now),
        'Pending', 'True', 'NoClusters', 'No clusters in pool are ready to be claimed', now);
      await writeStatus(ctx, R.clusterClaim, claim, { ...claim.status, conditions });
      continue;
    }
    const updated = await ctx.client.update(R.clusterClaim, { ...claim, spec: { ...claim.spec, namespace: cd.metadata.namespace } });
    const conditions = setCondition(initConditions(updated.status?.conditions, ['Pending', 'ClusterRunning'], now),
      'Pending', 'True', 'ClusterAssigned', 'Cluster assigned to ClusterClaim, awaiting claim', now);
    await ctx.client.updateStatus(R.clusterClaim, { ...updated, status: { ...updated.status, conditions } });
    await ctx.client.update(R.clusterDeployment, {
      ...cd,
      spec: {
        ...cd.spec, powerState: 'Running',
        clusterPoolRef: { ...cd.spec.clusterPoolRef, claimName: claim.metadata.name, claimedTimestamp: toTime(now) },
      },
    });
    cds.unassigned = cds.unassigned.filter((c) => c !== cd);
    ctx.log({ hub: ctx.hub, claim: `${claim.metadata.namespace}/${claim.metadata.name}`, cd: cd.metadata.name }, 'claim assigned');
  }
  return waiting;
}

/** The oldest runningCount + waiting-claims unassigned, non-broken CDs run; the rest hibernate. */
async function reconcileRunningClusters(ctx: HiveContext, pool: Obj, cds: PoolCollection, waitingClaims: number) {
  const candidates = cds.unassigned.filter((cd) => !cds.broken.includes(cd)).sort(byAge);
  const running = (pool.spec.runningCount ?? 0) + waitingClaims;
  for (const [i, cd] of candidates.entries()) {
    // A CD that cannot hibernate is always asked to run.
    const unsupported = findCondition(cd.status?.conditions, 'Hibernating')?.reason === 'Unsupported';
    const powerState = i < running || unsupported ? 'Running' : 'Hibernating';
    if (cd.spec.powerState === powerState) continue;
    await writeObject(ctx, R.clusterDeployment, cd, { ...cd, spec: { ...cd.spec, powerState } });
  }
}

async function deleteCd(ctx: HiveContext, cd: Obj, why: string) {
  ctx.log({ hub: ctx.hub, cd: `${cd.metadata.namespace}/${cd.metadata.name}`, why }, 'deleting pool cluster');
  try {
    await ensureDeleted(ctx, R.clusterDeployment, cd.metadata.namespace, cd.metadata.name);
  } catch (e: any) {
    // e.g. protected-delete: the webhook refuses, as it would refuse Hive.
    ctx.log({ hub: ctx.hub, cd: cd.metadata.name, err: String(e?.message ?? e) }, 'pool cluster delete refused');
  }
}

/** reconcileDeletedPool: unclaimed and marked CDs go; claimed ones stay; the finalizer holds until all are gone. */
async function reconcileDeletedPool(ctx: HiveContext, pool: Obj, cds: PoolCollection, conditions: Condition[]) {
  const now = ctx.clock.now();
  const maxConcurrent = pool.spec.maxConcurrent;
  let available = maxConcurrent === undefined || maxConcurrent === null ? Infinity : maxConcurrent - cds.deleting.length;
  for (const cd of [...cds.markedForRemoval, ...cds.unassigned]) {
    if (available-- <= 0) break;
    await deleteCd(ctx, cd, 'pool deleted');
  }
  if (cds.all.length > 0) {
    conditions = setCondition(conditions, 'DeletionPossible', 'False', 'ClusterDeploymentsPendingCleanup',
      `The following cluster deployments are pending cleanup: ${cds.all.map((c) => c.metadata.name).sort().join(', ')}`, now);
    await writeStatus(ctx, R.clusterPool, pool, { ...pool.status, conditions });
    return;
  }
  if (hasFinalizer(pool, F.clusters)) await removeFinalizer(ctx, R.clusterPool, pool, F.clusters);
}

