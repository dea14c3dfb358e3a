import type { ClusterDeployment } from '../types.js';
// The durable record of cluster-specific edges (a keep-awake lapsing, the install grace period ending): the latest
// one handled, on the ClusterDeployment itself. A schedule's edges have status.lastSweep; without this a scheduler
// restart or a resync after Redis lost the job could not tell a handled lapse from a lost one, and replaying it
// would undo whatever a person did to the cluster since.

export const CLUSTER_EDGE_ANNOTATION = 'beekeeper.io/last-cluster-edge';

/** The edge at `atMs`, or a later one, was handled (acted on, skipped, or found to need nothing). */
export function clusterEdgeHandled(cd: ClusterDeployment, atMs: number): boolean {
  const last = Date.parse(cd.metadata.annotations?.[CLUSTER_EDGE_ANNOTATION] ?? '');
  return !Number.isNaN(last) && last >= atMs;
}
