// Where a claim stands and why, in plain words (REFERENCE.md §4.3 and §5): Hive only says Pending/NoClusters;
// a CI user wants to know whether they are queued, whether the pool is stuck, or which resume step is running.
import { condition, type ClusterClaim, type ClusterDeployment, type ClusterPool } from '../pools/types.js';
import { REMOVE_FROM_POOL_ANNOTATION } from '../pools/labels.js';
import { claimsAhead } from './claim-queue.js';
import { parseDuration } from './duration.js';
import { estimateWait, type Eta } from './eta.js';
import { powerStep, type PowerStep } from './power-step.js';

export type ClaimPhase = 'Pending' | 'Starting' | 'Running' | 'Hibernating' | 'Releasing' | 'ClusterLost';

export type ClaimReason =
  | 'PoolNotFound'
  | 'PoolDeleting'
  | 'MissingDependencies'
  | 'QueuedBehind'
  | 'AssignmentPending'
  | 'ClusterResuming'
  | 'ClustersInstalling'
  | 'AtCapacity'
  | 'NoReadyCluster'
  | 'AssignmentConflict'
  | 'ClusterStarting'
  | 'Running'
  | 'ClusterHibernating'
  | 'Released'
  | 'ClusterDeleting'
  | 'ClusterDeleted';

export interface ClaimStatus {
  phase: ClaimPhase;
  reason: ClaimReason;
  message: string;
  /** While waiting in Hive's FIFO queue: 1-based position and how many are served first. */
  queue?: { position: number; ahead: number };
  /** The power step of the cluster this claim is (or will be) getting. */
  step?: PowerStep & { cluster: string };
  eta?: Eta;
  lifetime?: { lifetime: string; claimedAt?: string; expiresAt?: string };
}

export interface ClaimContext {
  now: number;
  pool: ClusterPool | undefined;
  /** The claimed cluster, when `spec.namespace` names one and the cache has it. */
  cluster: ClusterDeployment | undefined;
  /** Unassigned claims of the pool in Hive's order (claimQueue). */
  queue: ClusterClaim[];
  /** All ClusterDeployments of the pool. */
  poolClusters: ClusterDeployment[];
  /** Recent claim waits on this pool, for the estimate (claimWaitSamples). */
  recentWaitsMs: number[];
  /** Recent install durations in this pool, for a claim that waits for a build (installSamples). */
  installsMs?: number[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const age = (cd: ClusterDeployment) => Date.parse(cd.metadata.creationTimestamp ?? '') || 0;

function lifetimeOf(claim: ClusterClaim): ClaimStatus['lifetime'] {
  // spec first: Beekeeper refuses lifetimes beyond the cap, so spec is what Hive will enforce, and status lags an
  // extension until Hive's next reconcile.
  const lifetime = claim.spec.lifetime ?? claim.status?.lifetime;
  if (!lifetime) return undefined;
  const pending = condition(claim, 'Pending');
  // Hive starts the clock when Pending turns False (ClusterClaimed), not when the cluster runs (REFERENCE.md §5).
  const claimedAt = pending?.status === 'False' ? pending.lastTransitionTime : undefined;
  const ms = parseDuration(lifetime);
  const expiresAt = claimedAt && ms !== undefined ? new Date(Date.parse(claimedAt) + ms).toISOString() : undefined;
  return { lifetime, claimedAt, expiresAt };
}

/** Unassigned pool clusters on their way to Running, in the order Hive will hand them out (oldest first). */
function supply(poolClusters: ClusterDeployment[]) {
  const unassigned = poolClusters.filter(
    (cd) => !cd.spec.clusterPoolRef?.claimName && !cd.metadata.deletionTimestamp && cd.metadata.annotations?.[REMOVE_FROM_POOL_ANNOTATION] !== 'true',
  );
  const sorted = [...unassigned].sort((a, b) => age(a) - age(b));
  return {
    resuming: sorted.filter((cd) => cd.spec.installed && cd.spec.powerState === 'Running' && cd.status?.powerState !== 'Running'),
    installing: sorted.filter((cd) => !cd.spec.installed),
    standby: sorted.filter((cd) => cd.spec.installed && cd.status?.powerState !== 'Running'),
  };
}

function pendingStatus(claim: ClusterClaim, ctx: ClaimContext): ClaimStatus {
  const pool = ctx.pool;
  const poolName = `${claim.metadata.namespace}/${claim.spec.clusterPoolName}`;
  if (!pool) return { phase: 'Pending', reason: 'PoolNotFound', message: `pool ${poolName} does not exist; Hive leaves the claim pending until it does` };
  if (pool.metadata.deletionTimestamp) {
    return { phase: 'Pending', reason: 'PoolDeleting', message: `pool ${poolName} is being deleted and fills no new claims` };
  }
  const ahead = claimsAhead(claim, ctx.queue) ?? 0;
  const queue = { position: ahead + 1, ahead };
  const elapsed = Math.max(0, ctx.now - (Date.parse(claim.metadata.creationTimestamp ?? '') || ctx.now));
  const eta = estimateWait(ctx.recentWaitsMs, ahead, elapsed, pool.spec.size);
  const base = { phase: 'Pending' as const, queue, eta };
  const queued = ahead > 0 ? `${plural(ahead, 'claim')} ahead in the queue (Hive serves claims oldest first); ` : '';
  const reason = (own: ClaimReason): ClaimReason => (ahead > 0 ? 'QueuedBehind' : own);

  const missing = condition(pool, 'MissingDependencies');
  if (missing?.status === 'True') {
    return { ...base, reason: 'MissingDependencies', message: `${queued}the pool cannot build clusters, it is missing dependencies: ${missing.message ?? 'see the pool'}` };
  }
  const ready = pool.status?.ready ?? 0;
  if (ready > ahead) {
    return { ...base, reason: reason('AssignmentPending'), message: `${queued}a ready cluster is free; Hive is assigning it` };
  }
  // Hive resumes or installs clusters for the queue in age order; the claim gets the one at its place in line.
  const { resuming, installing, standby } = supply(ctx.poolClusters);
  const mine = ahead - ready;
  const coming = resuming[mine];
  if (coming) {
    const step = powerStep(coming);
    return {
      ...base,
      reason: reason('ClusterResuming'),
      message: `${queued}no ready cluster; ${coming.metadata.name} is ${step.words}`,
      step: { ...step, cluster: `${coming.metadata.namespace}/${coming.metadata.name}` },
    };
  }
  const capacity = condition(pool, 'CapacityAvailable');
  if (capacity?.status === 'False') {
    return {
      ...base,
      reason: reason('AtCapacity'),
      message: `${queued}no ready cluster and the pool is at capacity (maxSize ${pool.spec.maxSize ?? '?'}); it waits for a claimed cluster to be released`,
    };
  }
  // A claim that waits for a build: the pool's install durations say more than claim waits served from stock.
  const installEta = estimateWait(ctx.installsMs ?? [], ahead, elapsed, pool.spec.size, 'installs');
  const building = installEta ? { eta: installEta } : {};
  if (installing.length > 0) {
    return { ...base, ...building, reason: reason('ClustersInstalling'), message: `${queued}no ready cluster; ${plural(installing.length, 'cluster')} installing` };
  }
  const hibernating = standby.length - resuming.length;
  return {
    ...base,
    // Nothing to resume: Hive builds a cluster for the claim (its drift counts pending claims, REFERENCE.md §4).
    ...(hibernating > 0 ? {} : building),
    reason: reason('NoReadyCluster'),
    message: `${queued}no ready cluster in the pool` + (hibernating > 0 ? `; Hive will resume one of ${plural(hibernating, 'hibernating cluster')} for it` : ''),
  };
}

export function claimStatus(claim: ClusterClaim, ctx: ClaimContext): ClaimStatus {
  const lifetime = lifetimeOf(claim);
  if (claim.metadata.deletionTimestamp) {
    return { phase: 'Releasing', reason: 'Released', message: 'released; Hive is deprovisioning the cluster', lifetime };
  }
  const pending = condition(claim, 'Pending');
  if (pending?.reason === 'AssignmentConflict') {
    return { phase: 'Pending', reason: 'AssignmentConflict', message: `Hive found the assigned cluster claimed by another claim and will assign another: ${pending.message ?? ''}`.trim(), lifetime };
  }
  const namespace = claim.spec.namespace;
  if (!namespace) return { ...pendingStatus(claim, ctx), lifetime };

  const running = condition(claim, 'ClusterRunning');
  const cd = ctx.cluster;
  if (!cd) {
    if (running?.reason === 'ClusterDeleted') return { phase: 'ClusterLost', reason: 'ClusterDeleted', message: `cluster ${namespace} was deleted; release this claim`, lifetime };
    return { phase: 'Starting', reason: 'ClusterStarting', message: `cluster ${namespace} assigned; waiting for it to appear`, lifetime };
  }
  if (cd.metadata.deletionTimestamp || cd.metadata.annotations?.[REMOVE_FROM_POOL_ANNOTATION] === 'true') {
    return { phase: 'ClusterLost', reason: 'ClusterDeleting', message: `cluster ${namespace} is being deleted; release this claim`, lifetime };
  }
  const step = { ...powerStep(cd), cluster: `${namespace}/${cd.metadata.name}` };
  if (running?.status === 'True') return { phase: 'Running', reason: 'Running', message: `cluster ${namespace} is running`, step, lifetime };
  // Hive reports a claimed cluster hibernated on purpose as Resuming (REFERENCE.md §5); say what it is.
  if (cd.spec.powerState === 'Hibernating') {
    return { phase: 'Hibernating', reason: 'ClusterHibernating', message: `cluster ${namespace} is ${step.words}; resume it to use it`, step, lifetime };
  }
  return { phase: 'Starting', reason: 'ClusterStarting', message: `cluster ${namespace} assigned; it is ${step.words}`, step, lifetime };
}
