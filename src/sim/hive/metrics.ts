import type { Counter, MetricsRegistry } from '../metrics.js';

/** The Prometheus metrics the simulated controllers keep, under Hive's names and labels. */
export interface HiveMetrics {
  /** pkg/controller/clusterrelocate metricSuccessfulClusterRelocations: one per completed move. */
  clusterRelocations: Counter;
  /** pkg/controller/clusterrelocate metricAbortedClusterRelocations, reason no_match | multiple_matches | new_match. */
  abortedClusterRelocations: Counter;
}

export function registerHiveMetrics(registry: MetricsRegistry): HiveMetrics {
  return {
    clusterRelocations: registry.counter(
      'hive_cluster_relocations',
      'Total number of successful cluster relocations.',
      ['cluster_relocate'],
    ),
    abortedClusterRelocations: registry.counter(
      'hive_aborted_cluster_relocations',
      'Total number of aborted cluster relocations.',
      ['cluster_relocate', 'reason'],
    ),
  };
}
