import { metaConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { localRef } from './refs.js';
import { arr, enumOf, obj, str, type Schema } from './schema-builders.js';

/** A JSON-patch operation applied to the install-config or to installer manifests. */
function patchEntity(): Schema {
  return obj(
    {
      from: str(),
      op: enumOf('add', 'remove', 'replace', 'move', 'copy', 'test'),
      path: str(),
      value: str(),
      valueJSON: str(),
    },
    ['op', 'path'],
  );
}

/** ClusterDeploymentCustomization: pool inventory entries, reserved per CD (REFERENCE §4.3 "Inventory"). */
export function clusterDeploymentCustomizationCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterDeploymentCustomization',
    plural: 'clusterdeploymentcustomizations',
    shortNames: ['cdc'],
    scope: 'Namespaced',
    required: ['spec'],
    spec: obj({
      installConfigPatches: arr(patchEntity()),
      installerManifestPatches: arr(
        obj(
          {
            manifestSelector: obj({ glob: str() }, ['glob']),
            patches: arr(patchEntity()),
          },
          ['manifestSelector', 'patches'],
        ),
      ),
    }),
    status: obj({
      clusterDeploymentRef: localRef(),
      clusterPoolRef: localRef(),
      conditions: metaConditions(),
      lastAppliedConfiguration: str(),
    }),
  });
}
