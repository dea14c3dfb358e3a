// A claim whose cluster a relocation is moving is not released meanwhile: releasing deletes the claim, and Hive
// then deletes (deprovisions) the cluster, which must never happen mid-move (REFERENCE.md §6).
import { relocatingMessage } from '../../hive/relocation-marks.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore } from '../ports.js';

/** Why the claim's cluster must be left alone now (a relocation is moving it), or undefined. */
export function claimClusterRelocating(store: HiveStore, hub: string, claim: ClusterClaim): string | undefined {
  const namespace = claim.spec?.namespace;
  if (!namespace) return undefined;
  for (const { object } of store.cachedList<ClusterDeployment>('ClusterDeployment', { hub, namespace })) {
    const why = relocatingMessage(object);
    if (why) return `cluster ${namespace}/${object.metadata.name}: ${why}`;
  }
  return undefined;
}
