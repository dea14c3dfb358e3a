// What GET /v1/pools/{hub}/{namespace}/{name} answers: Hive's counts, conditions in plain words, the claims
// waiting in Hive's order, and every cluster of the pool.
import { poolAttributes } from '../../hive/pools/pool-attributes.js';
import {
  countByState,
  deletionBlockers,
  poolClusterState,
  type PoolClusterState,
} from '../../hive/pools/pool-clusters.js';
import { poolProblems, type PoolProblem } from '../../hive/pools/pool-conditions.js';
import type { ClusterPool } from '../../hive/pools/types.js';
import type { HiveStore, NamespacedRef } from '../ports.js';
import { imageSetOf, poolClusters, poolQueue } from './pool-lookup.js';
import { refId } from '../../hive/object-ref.js';

export interface PoolView {
  id: string;
  hub: string;
  namespace: string;
  name: string;
  platform?: string;
  region?: string;
  version?: string;
  architecture?: string;
  imageSet: string;
  baseDomain: string;
  labels: Record<string, string>;
  size: number;
  runningCount: number;
  maxSize?: number;
  maxConcurrent?: number;
  hibernateAfter?: string;
  claimLifetime?: { default?: string; maximum?: string };
  /** Hive's own counts: status.size (unclaimed), standby (installed, not running), ready (running, claimable). */
  counts: { size: number; standby: number; ready: number };
  /** Every cluster of the pool by state, claimed and deleting ones included (Hive reports none of these). */
  clustersByState: Record<PoolClusterState, number>;
  problems: PoolProblem[];
  claimsWaiting: number;
  queue: string[];
  /** Every cluster of the pool; on a single pool's view, not on list items (clustersByState sums them up). */
  clusters?: Array<{ id: string; state: PoolClusterState; powerState?: string; claim?: string; createdAt?: string }>;
  deleting: boolean;
  /** While deleting: the claims whose clusters hold the pool's finalizer. */
  deletionBlockedBy?: Array<{ cluster: string; claim: string }>;
}

/** A pool's view; `detail` (everything but a list item) adds every cluster of the pool. */
export function buildPoolView(store: HiveStore, hub: string, pool: ClusterPool, detail = true): PoolView {
  const ref: NamespacedRef = { hub, namespace: pool.metadata.namespace!, name: pool.metadata.name };
  const cds = poolClusters(store, ref);
  const queue = poolQueue(store, ref, cds);
  const attrs = poolAttributes(pool, imageSetOf(store, hub, pool));
  const deleting = Boolean(pool.metadata.deletionTimestamp);
  const blockers = deleting ? deletionBlockers(cds) : [];
  return {
    id: refId(ref),
    ...ref,
    platform: attrs.platform,
    region: attrs.region,
    version: attrs.version,
    architecture: attrs.architecture,
    imageSet: pool.spec.imageSetRef.name,
    baseDomain: pool.spec.baseDomain,
    labels: pool.metadata.labels ?? {},
    size: pool.spec.size,
    runningCount: pool.spec.runningCount ?? 0,
    maxSize: pool.spec.maxSize,
    maxConcurrent: pool.spec.maxConcurrent,
    hibernateAfter: pool.spec.hibernateAfter,
    claimLifetime: pool.spec.claimLifetime,
    counts: { size: pool.status?.size ?? 0, standby: pool.status?.standby ?? 0, ready: pool.status?.ready ?? 0 },
    clustersByState: countByState(cds),
    problems: poolProblems(pool.status?.conditions, deleting),
    claimsWaiting: queue.length,
    queue: queue.map((c) => `${hub}/${c.metadata.namespace}/${c.metadata.name}`),
    ...(detail
      ? {
          clusters: cds
            .map((cd) => ({
              id: `${hub}/${cd.metadata.namespace}/${cd.metadata.name}`,
              state: poolClusterState(cd),
              powerState: cd.status?.powerState,
              claim: cd.spec.clusterPoolRef?.claimName
                ? `${hub}/${ref.namespace}/${cd.spec.clusterPoolRef.claimName}`
                : undefined,
              createdAt: cd.metadata.creationTimestamp,
            }))
            .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '')),
        }
      : {}),
    deleting,
    ...(deleting
      ? {
          deletionBlockedBy: blockers.map((b) => ({
            cluster: `${hub}/${b.cluster}`,
            claim: `${hub}/${ref.namespace}/${b.claim}`,
          })),
        }
      : {}),
  };
}
