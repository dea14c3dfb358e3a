import { hiveConditions } from './conditions.js';
import { defineCrd } from './define-crd.js';
import { arr, dateTime, enumOf, int64, obj, str, type Schema } from './schema-builders.js';

/** One SyncSet's (or SelectorSyncSet's) result for the cluster. */
function syncStatus(): Schema {
  return arr(
    obj(
      {
        failureMessage: str(),
        firstSuccessTime: dateTime(),
        lastTransitionTime: dateTime(),
        name: str(),
        observedGeneration: int64(),
        resourcesToDelete: arr(
          obj({ apiVersion: str(), kind: str(), name: str(), namespace: str() }, ['apiVersion', 'name']),
        ),
        result: enumOf('Success', 'Failure'),
      },
      ['lastTransitionTime', 'name', 'observedGeneration', 'result'],
    ),
  );
}

/**
 * hiveinternal ClusterSync `<ns>/<cdName>`: per-cluster SyncSet results. `status.firstSuccessTime` gates
 * hibernation (REFERENCE §2.5); the spec is an empty object.
 */
export function clusterSyncCrd(): Record<string, unknown> {
  return defineCrd({
    group: 'hiveinternal.openshift.io',
    version: 'v1alpha1',
    kind: 'ClusterSync',
    plural: 'clustersyncs',
    shortNames: ['csync'],
    scope: 'Namespaced',
    spec: obj({}),
    status: obj({
      conditions: hiveConditions(),
      controlledByReplica: int64(),
      firstSuccessTime: dateTime(),
      selectorSyncSets: syncStatus(),
      syncSets: syncStatus(),
    }),
    printerColumns: [
      { jsonPath: '.status.conditions[0].reason', name: 'Status', type: 'string' },
      { jsonPath: '.status.controlledByReplica', name: 'ControllerReplica', type: 'string' },
      { jsonPath: '.status.conditions[?(@.type=="Failed")].message', name: 'Message', priority: 1, type: 'string' },
    ],
  });
}
