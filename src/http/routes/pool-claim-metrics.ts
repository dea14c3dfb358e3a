// Pool and claim metrics on the process registry: supply per pool and pending claims are read from the informer
// cache at scrape time (so every replica reports the same truth); claim waits are observed as claims start running.
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { ClusterPool } from '../../hive/pools/types.js';
import type { HiveStore } from '../../services/ports.js';
import { poolClusters } from '../../services/pools/pool-lookup.js';
import { countByState } from '../../hive/pools/pool-clusters.js';

export interface PoolClaimMetrics {
  observeWait(poolId: string, seconds: number): void;
  /** Where the claims-pending gauge reads from (the claim service's pendingByPool). */
  setPendingSource(source: () => Map<string, number>): void;
}

export function createPoolClaimMetrics(registry: Registry, deps: { store: HiveStore }): PoolClaimMetrics {
  let pending: () => Map<string, number> = () => new Map();
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
      for (const [id, n] of pending()) this.set(split(id), n);
    },
  });
  return {
    observeWait: (poolId, seconds) => wait.observe(split(poolId), seconds),
    setPendingSource: (source) => {
      pending = source;
    },
  };
}
