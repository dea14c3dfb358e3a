// Pool and claim metrics on the process registry: supply per pool and pending claims are read from the informer
// cache at scrape time (so every replica reports the same truth); claim waits are observed as claims start running,
// by the scheduler lease holder only (services/claims/claim-wait-metric.ts).
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { ClusterPool } from '../../hive/pools/types.js';
import type { Clock, HiveStore } from '../../services/ports.js';
import { poolClusters } from '../../services/pools/pool-lookup.js';
import { countByState } from '../../hive/pools/pool-clusters.js';

export interface PoolClaimMetrics {
  observeWait(poolId: string, seconds: number): void;
  /** Where the claims-pending gauges read from (the claim service's pendingByPool). */
  setPendingSource(source: () => Map<string, PendingClaims>): void;
}

export interface PendingClaims {
  count: number;
  /** creationTimestamp of the pool's oldest pending claim (ms; Infinity when none has one). */
  oldestCreatedMs: number;
}

export function createPoolClaimMetrics(
  registry: Registry,
  deps: { store: HiveStore; clock: Pick<Clock, 'now'> },
): PoolClaimMetrics {
  let pending: () => Map<string, PendingClaims> = () => new Map();
  const registers = [registry];
  const split = (id: string) => {
    const [hub = '', namespace = '', pool = ''] = id.split('/');
    return { hub, namespace, pool };
  };
  const wait = new Histogram({
    name: 'beekeeper_claim_wait_seconds',
    help: 'Time from a claim being created to its cluster running',
    labelNames: ['hub', 'namespace', 'pool'] as const,
    buckets: [5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200],
    registers,
  });
  new Gauge({
    name: 'beekeeper_pool_clusters',
    help: 'Clusters of each pool by supply state: ready (running, claimable), standby (hibernated), installing',
    labelNames: ['hub', 'namespace', 'pool', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const { hub, object } of deps.store.cachedList<ClusterPool>('ClusterPool')) {
        const labels = { hub, namespace: object.metadata.namespace!, pool: object.metadata.name };
        const counts = countByState(poolClusters(deps.store, { hub, namespace: labels.namespace, name: labels.pool }));
        for (const state of ['ready', 'standby', 'installing'] as const) this.set({ ...labels, state }, counts[state]);
      }
    },
  });
  new Gauge({
    name: 'beekeeper_claims_pending',
    help: 'Claims waiting for a cluster, per pool',
    labelNames: ['hub', 'namespace', 'pool'] as const,
    registers,
    collect() {
      this.reset();
      for (const [id, p] of pending()) this.set(split(id), p.count);
    },
  });
  new Gauge({
    name: 'beekeeper_claims_pending_oldest_seconds',
    // The histogram above only learns of a wait once it ends; a claim stuck for hours shows here while it waits.
    help: 'Age of the oldest claim still waiting for a cluster, per pool',
    labelNames: ['hub', 'namespace', 'pool'] as const,
    registers,
    collect() {
      this.reset();
      const now = deps.clock.now();
      for (const [id, p] of pending())
        if (Number.isFinite(p.oldestCreatedMs)) this.set(split(id), Math.max(0, (now - p.oldestCreatedMs) / 1000));
    },
  });
  return {
    observeWait: (poolId, seconds) => wait.observe(split(poolId), seconds),
    setPendingSource: (source) => {
      pending = source;
    },
  };
}
