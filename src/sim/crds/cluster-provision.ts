import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { localRef } from './refs.js';
import { int, obj, opaque, str } from './schema-builders.js';

/**
 * ClusterProvision: one install attempt, named `<cd>-<attempt>-<rand5>`. Upstream keeps the whole spec open
 * (it embeds the install pod spec), so unknown spec fields are preserved; `stage` has no CRD enum
 * (initializing, provisioning, complete, failed are Hive's values, REFERENCE §2.4).
 */
export function clusterProvisionCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterProvision',
    plural: 'clusterprovisions',
    scope: 'Namespaced',
    spec: opaque(
      {
        adminKubeconfigSecretRef: localRef(),
        adminPasswordSecretRef: localRef(),
        attempt: int(),
        clusterDeploymentRef: localRef(),
        clusterID: str(),
        infraID: str(),
        installLog: str(),
        metadata: opaque(),
        metadataJSON: str({ format: 'byte' }),
        prevClusterID: str(),
        prevInfraID: str(),
        prevProvisionName: str(),
        stage: str(),
      },
      ['attempt', 'clusterDeploymentRef', 'podSpec', 'stage'],
    ),
    status: obj({ conditions: hiveConditions(), jobRef: localRef() }),
    printerColumns: [
      { jsonPath: '.spec.clusterDeploymentRef.name', name: 'ClusterDeployment', type: 'string' },
      { jsonPath: '.spec.stage', name: 'Stage', type: 'string' },
      { jsonPath: '.spec.infraID', name: 'InfraID', type: 'string' },
    ],
  });
}
