// Where the relocation job reports what the metrics count (src/http/routes/relocation-metrics.ts implements it).
import type { RelocationCluster, RelocationPhase } from '../../hive/resources/relocation.js';

export interface RelocationObserver {
  /** A relocation went from Pending to Running (once per relocation, not per run). */
  started(): void;
  finished(phase: Extract<RelocationPhase, 'Succeeded' | 'Failed' | 'Aborted'>): void;
  /** A cluster reached a final state (moved, failed, preflight-failed, aborted). */
  cluster(c: RelocationCluster): void;
}

export const NO_OBSERVER: RelocationObserver = { started() {}, finished() {}, cluster() {} };
