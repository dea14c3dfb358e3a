import { arr, obj, str, stringMap, type Schema } from './schema-builders.js';

/** metav1.LabelSelector (ClusterRelocate and SelectorSyncSet `clusterDeploymentSelector`, agentSelector). */
export function labelSelector(): Schema {
  return obj(
    {
      matchExpressions: arr(
        obj(
          {
            key: str(),
            operator: str(),
            values: arr(str(), { 'x-kubernetes-list-type': 'atomic' }),
          },
          ['key', 'operator'],
        ),
        { 'x-kubernetes-list-type': 'atomic' },
      ),
      matchLabels: stringMap(),
    },
    undefined,
    { 'x-kubernetes-map-type': 'atomic' },
  );
}
