// Where a claim stands and why, in plain words (REFERENCE.md §4.3 and §5): Hive only says Pending/NoClusters;
// a CI user wants to know whether a cluster is on its way for them (installing, resuming), whether they are queued
// behind other claims, whether the pool is stuck, and how long it will take.
import { findCondition } from '../types.js';
import type { ClusterClaim, ClusterDeployment, ClusterPool } from '../pools/types.js';
import { REMOVE_FROM_POOL_ANNOTATION } from '../pools/labels.js';
import { claimsAhead } from './claim-queue.js';
import { parseDuration } from './duration.js';
import {
  estimateBuild,
  estimateResume,
  NO_INSTALL_HISTORY,
  NO_RESUME_HISTORY,
  type Eta,
  type PoolHistory,
} from './eta.js';
import type { PoolSupply } from './pool-supply.js';
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
  /** Where the cluster this claim is (or will be) getting is: install stage or power step. */
  step?: PowerStep & { cluster: string };
  eta?: Eta;
  lifetime?: { lifetime: string; claimedAt?: string; expiresAt?: string };
}

export interface ClaimContext {
  now: number;
  pool: ClusterPool | undefined;
  /** The claimed cluster, when `spec.namespace` names one and the cache has it. */
  cluster: ClusterDeployment | undefined;
  /** The pool's clusters and claims read together (poolSupply). */
  supply: PoolSupply;
  /** The pool's install and resume durations (poolHistory). */
  history: PoolHistory;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const clusterRef = (cd: ClusterDeployment) => `${cd.metadata.namespace}/${cd.metadata.name}`;

function lifetimeOf(claim: ClusterClaim): ClaimStatus['lifetime'] {
  // spec first: Beekeeper refuses lifetimes beyond the cap, so spec is what Hive will enforce, and status lags an
  // extension until Hive's next reconcile.
  const lifetime = claim.spec.lifetime ?? claim.status?.lifetime;
  if (!lifetime) return undefined;
  const pending = findCondition(claim, 'Pending');
  // Hive starts the clock when Pending turns False (ClusterClaimed), not when the cluster runs (REFERENCE.md §5).
  const claimedAt = pending?.status === 'False' ? pending.lastTransitionTime : undefined;
  const ms = parseDuration(lifetime);
  const expiresAt = claimedAt && ms !== undefined ? new Date(Date.parse(claimedAt) + ms).toISOString() : undefined;
  return { lifetime, claimedAt, expiresAt };
}

/** The estimate, or the plain reason there is none appended to the message. */
function withEta(message: string, eta: Eta | undefined, none: string): { message: string; eta?: Eta } {
  return eta ? { message, eta } : { message: `${message}; ${none}` };
}

function pendingStatus(claim: ClusterClaim, ctx: ClaimContext): ClaimStatus {
  const pool = ctx.pool;
  const poolName = `${claim.metadata.namespace}/${claim.spec.clusterPoolName}`;
  if (!pool)
    return {
      phase: 'Pending',
      reason: 'PoolNotFound',
      message: `pool ${poolName} does not exist; Hive leaves the claim pending until it does`,
    };
  if (pool.metadata.deletionTimestamp) {
    return {
      phase: 'Pending',
      reason: 'PoolDeleting',
      message: `pool ${poolName} is being deleted and fills no new claims`,
    };
  }
  const { supply, history, now } = ctx;
  const ahead = claimsAhead(claim, supply.queue);
  const base = { phase: 'Pending' as const, queue: { position: ahead + 1, ahead } };
  const queued = ahead > 0 ? `${plural(ahead, 'claim')} ahead in the queue (Hive serves claims oldest first); ` : '';

  // Hive hands clusters out as they become Running, oldest claim first: this claim gets the one at its place in line.
  const coming = supply.coming[ahead];
  if (coming) {
    const { cd, kind } = coming;
    const step = { ...powerStep(cd), cluster: clusterRef(cd) };
    const name = cd.metadata.name;
    if (kind === 'ready')
      return { ...base, reason: 'AssignmentPending', message: `${queued}${name} is ready; Hive is assigning it` };
    if (kind === 'installing') {
      const said = withEta(
        `${queued}no ready cluster; ${name} is being installed for this claim (${step.words})`,
        estimateBuild(cd, history, now),
        NO_INSTALL_HISTORY,
      );
      return { ...base, reason: 'ClustersInstalling', step, ...said };
    }
    const words =
      kind === 'resuming' ? `${name} is ${step.words}` : `Hive will resume ${name} (hibernating) for this claim`;
    return {
      ...base,
      reason: 'ClusterResuming',
      step,
      ...withEta(`${queued}no ready cluster; ${words}`, estimateResume(cd, history, now), NO_RESUME_HISTORY),
    };
  }

  // Nothing on its way for this claim: the pool must build another (Hive's drift counts waiting claims, §4.3), if
  // its dependencies, maxSize and maxConcurrent let it.
  const needed = ahead - supply.coming.length + 1;
  const missing = findCondition(pool, 'MissingDependencies');
  if (missing?.status === 'True') {
    return {
      ...base,
      reason: 'MissingDependencies',
      message: `${queued}the pool cannot build clusters, it is missing dependencies: ${missing.message ?? 'see the pool'}`,
    };
  }
  if (!pool.status && supply.total === 0) {
    return {
      ...base,
      reason: 'NoReadyCluster',
      message: `${queued}no ready cluster; Hive has not reported on the pool yet`,
    };
  }
  const maxSize = pool.spec.maxSize;
  const room = maxSize === undefined ? Infinity : maxSize - supply.total;
  if (needed > room) {
    const counted = `maxSize ${maxSize} counts every cluster: ${supply.claimed} claimed${supply.removing ? `, ${supply.removing} being removed` : ''}`;
    const frees = supply.removing > 0 && needed <= room + supply.removing;
    return {
      ...base,
      reason: 'AtCapacity',
      message:
        `${queued}no ready cluster and the pool is at capacity (${counted}); ` +
        `${frees ? 'Hive builds one for this claim once the removed clusters are gone' : 'it waits for a claimed cluster to be released'}`,
    };
  }
  const maxConcurrent = pool.spec.maxConcurrent;
  const slots =
    maxConcurrent === undefined ? Infinity : Math.max(0, maxConcurrent - supply.installing - supply.deleting);
  if (needed > slots) {
    const rounds = 1 + Math.ceil((needed - slots) / Math.max(1, maxConcurrent ?? 1));
    const busy = `${plural(supply.installing, 'install')}${supply.deleting ? ` and ${plural(supply.deleting, 'deletion')}` : ''} running`;
    const said = withEta(
      `${queued}no cluster on its way for this claim yet: the pool works on at most ` +
        `${plural(maxConcurrent ?? 0, 'cluster')} at a time (maxConcurrent; ${busy}), so Hive ` +
        `builds one when a slot frees`,
      estimateBuild(undefined, history, now, rounds),
      NO_INSTALL_HISTORY,
    );
    return { ...base, reason: ahead > 0 ? 'QueuedBehind' : 'ClustersInstalling', ...said };
  }
  const said = withEta(
    `${queued}no ready cluster; Hive is creating a cluster for this claim`,
    estimateBuild(undefined, history, now),
    NO_INSTALL_HISTORY,
  );
  return { ...base, reason: 'ClustersInstalling', ...said };
}

export function claimStatus(claim: ClusterClaim, ctx: ClaimContext): ClaimStatus {
  const lifetime = lifetimeOf(claim);
  if (claim.metadata.deletionTimestamp) {
    return {
      phase: 'Releasing',
      reason: 'Released',
      message: 'released; Hive is deprovisioning the cluster',
      lifetime,
    };
  }
  const pending = findCondition(claim, 'Pending');
  if (pending?.reason === 'AssignmentConflict') {
    return {
      phase: 'Pending',
      reason: 'AssignmentConflict',
      message:
        `Hive found the assigned cluster claimed by another claim and will assign another: ${pending.message ?? ''}`.trim(),
      lifetime,
    };
  }
  // The cluster may name this claim before the claim's own spec.namespace reaches the cache (pool-supply.ts).
  const named = claim.spec.namespace ? undefined : ctx.supply.byClaim.get(claim.metadata.name);
  const namespace = claim.spec.namespace ?? named?.metadata.namespace;
  if (!namespace) return { ...pendingStatus(claim, ctx), lifetime };

  const running = findCondition(claim, 'ClusterRunning');
  const cd = ctx.cluster ?? named;
  if (!cd) {
    if (running?.reason === 'ClusterDeleted')
      return {
        phase: 'ClusterLost',
        reason: 'ClusterDeleted',
        message: `cluster ${namespace} was deleted; release this claim`,
        lifetime,
      };
    return {
      phase: 'Starting',
      reason: 'ClusterStarting',
      message: `cluster ${namespace} assigned; waiting for it to appear`,
      lifetime,
    };
  }
  if (cd.metadata.deletionTimestamp || cd.metadata.annotations?.[REMOVE_FROM_POOL_ANNOTATION] === 'true') {
    return {
      phase: 'ClusterLost',
      reason: 'ClusterDeleting',
      message: `cluster ${namespace} is being deleted; release this claim`,
      lifetime,
    };
  }
  const step = { ...powerStep(cd), cluster: clusterRef(cd) };
  if (running?.status === 'True')
    return { phase: 'Running', reason: 'Running', message: `cluster ${namespace} is running`, step, lifetime };
  // Hive reports a claimed cluster hibernated on purpose as Resuming (REFERENCE.md §5); say what it is.
  if (cd.spec.powerState === 'Hibernating') {
    return {
      phase: 'Hibernating',
      reason: 'ClusterHibernating',
      message: `cluster ${namespace} is ${step.words}; resume it to use it`,
      step,
      lifetime,
    };
  }
  if (cd.status?.powerState === 'Running') {
    return {
      phase: 'Starting',
      reason: 'ClusterStarting',
      message: `cluster ${namespace} assigned and running; Hive is handing it over`,
      step,
      lifetime,
    };
  }
  const eta = estimateResume(cd, ctx.history, ctx.now);
  return {
    phase: 'Starting',
    reason: 'ClusterStarting',
    message: `cluster ${namespace} assigned; it is ${step.words}`,
    step,
    ...(eta ? { eta } : {}),
    lifetime,
  };
}
