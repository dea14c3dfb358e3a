import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { labelSelector } from './label-selector.js';
import { namespacedRef } from './refs.js';
import { obj } from './schema-builders.js';

/**
 * ClusterRelocate. The generated upstream CRD is Namespaced although the Go client type is not (REFERENCE §1):
 * the API server enforces the CRD, so it is Namespaced here. Its status is an empty object.
 */
export function clusterRelocateCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterRelocate',
    plural: 'clusterrelocates',
    scope: 'Namespaced',
    spec: obj(
      {
        clusterDeploymentSelector: labelSelector(),
        kubeconfigSecretRef: namespacedRef(),
      },
      ['clusterDeploymentSelector', 'kubeconfigSecretRef'],
    ),
    status: obj({}),
    printerColumns: [{ jsonPath: '.spec.clusterDeploymentSelector', name: 'Selector', type: 'string' }],
  });
}
