import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { arr, duration, obj, str } from './schema-builders.js';

/** ClusterClaim: lives in its pool's namespace; Hive fills `spec.namespace` with the assigned CD's (REFERENCE §5). */
export function clusterClaimCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterClaim',
    plural: 'clusterclaims',
    scope: 'Namespaced',
    required: ['spec'],
    spec: obj(
      {
        clusterPoolName: str(),
        lifetime: duration(),
        namespace: str(),
        subjects: arr(
          obj(
            {
              apiGroup: str(),
              kind: str(),
              name: str(),
              namespace: str(),
            },
            ['kind', 'name'],
            { 'x-kubernetes-map-type': 'atomic' },
          ),
        ),
      },
      ['clusterPoolName'],
    ),
    status: obj({
      conditions: hiveConditions(),
      // The effective lifetime, written by Hive as a Go duration string (no pattern upstream).
      lifetime: str(),
    }),
    printerColumns: [
      { jsonPath: '.spec.clusterPoolName', name: 'Pool', type: 'string' },
      { jsonPath: ".status.conditions[?(@.type=='Pending')].reason", name: 'Pending', type: 'string' },
      { jsonPath: '.spec.namespace', name: 'ClusterNamespace', type: 'string' },
      { jsonPath: ".status.conditions[?(@.type=='ClusterRunning')].reason", name: 'ClusterRunning', type: 'string' },
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
    ],
  });
}
