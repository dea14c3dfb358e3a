// What preflight says about a relocation before anything moves: per cluster, each finding with its reason and its
// fix. POST /v1/relocations answers with it (and refuses, changing nothing, when a cluster fails and skipFailed is
// not set); the relocation job runs it again as each wave starts, since a cluster may have changed in between.
import type { RelocationCheck, RelocationSpec } from '../../hive/resources/relocation.js';

export interface ClusterName {
  namespace: string;
  name: string;
}

export interface ClusterPreflight extends ClusterName {
  /** No `error` check. */
  ok: boolean;
  checks: RelocationCheck[];
}

export interface PreflightReport {
  clusters: ClusterPreflight[];
  /** ClusterImageSets the clusters reference that the destination lacks; the relocation copies them. */
  imageSetsToCopy: string[];
  /** Findings about the relocation as a whole (e.g. the destination unreachable), not one cluster. */
  warnings: string[];
}

/**
 * `id`: the relocation asking, when its job re-runs preflight as a wave starts; its own record, ClusterRelocate and
 * label do not count against its clusters. `team`: the team the relocation belongs to (when `id` is given, read
 * from the Relocation's label): a cluster of any other team fails the `team` check.
 */
export type Preflight = (
  spec: RelocationSpec,
  clusters: readonly ClusterName[],
  opts?: { id?: string; team?: string },
) => Promise<PreflightReport>;
