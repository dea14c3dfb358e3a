import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { localRef } from './refs.js';
import { arr, obj } from './schema-builders.js';
import { syncSetCommonProperties } from './sync-set-common.js';

/** SyncSet: namespaced, targets `spec.clusterDeploymentRefs`; results live in ClusterSync (REFERENCE §7). */
export function syncSetCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'SyncSet',
    plural: 'syncsets',
    shortNames: ['ss'],
    scope: 'Namespaced',
    spec: obj({ ...syncSetCommonProperties(), clusterDeploymentRefs: arr(localRef()) }, ['clusterDeploymentRefs']),
    status: obj({}),
  });
}
