// Relocation metrics on the process registry (issue 11): relocations started and finished by phase, clusters by
// how their move ended (with Hive's or Beekeeper's reason), and how long a move took. Fed by the relocation job.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RelocationObserver } from '../../services/relocations/relocation-observer.js';

export function createRelocationMetrics(registry: Registry): RelocationObserver {
  const registers = [registry];
  const started = new Counter({
    name: 'beekeeper_relocations_started_total',
    help: 'Relocations whose job started moving clusters',
    registers,
  });
  const finished = new Counter({
    name: 'beekeeper_relocations_finished_total',
    help: 'Relocations ended, by phase (Succeeded, Failed, Aborted)',
    labelNames: ['phase'] as const,
    registers,
  });
  const clusters = new Counter({
    name: 'beekeeper_relocation_clusters_total',
    help: 'Clusters of relocations by how they ended (moved, failed, preflight-failed, aborted) and reason',
    labelNames: ['state', 'reason'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'beekeeper_relocation_move_seconds',
    help: 'Time from a cluster being labelled for its move to it being verified on the destination',
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
    registers,
  });
  return {
    started: () => started.inc(),
    finished: (phase) => finished.inc({ phase }),
    cluster(c) {
      clusters.inc({ state: c.state, reason: c.reason ?? '' });
      const from = Date.parse(c.startedAt ?? '');
      const to = Date.parse(c.finishedAt ?? '');
      if (c.state === 'moved' && !Number.isNaN(from) && !Number.isNaN(to)) duration.observe((to - from) / 1000);
    },
  };
}
