import { envVar } from './cluster-deployment.js';
import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { clusterPlatform } from './platform.js';
import { localRef, requiredNameRef } from './refs.js';
import { arr, bool, duration, int32, obj, str, stringMap, type Schema } from './schema-builders.js';

function clusterPoolSpec(): Schema {
  return obj(
    {
      annotations: stringMap(),
      baseDomain: str(),
      claimLifetime: obj({ default: duration(), maximum: duration() }),
      customizationRef: localRef(),
      hibernateAfter: duration(),
      hibernationConfig: obj({ resumeTimeout: duration() }),
      imageSetRef: requiredNameRef(),
      installAttemptsLimit: int32(),
      installConfigSecretTemplateRef: localRef(),
      installerEnv: arr(envVar()),
      inventory: arr(
        obj(
          {
            kind: str({ enum: ['', 'ClusterDeploymentCustomization'], default: 'ClusterDeploymentCustomization' }),
            name: str(),
          },
          ['name'],
        ),
      ),
      labels: stringMap(),
      maxConcurrent: int32(),
      maxSize: int32(),
      platform: clusterPlatform(),
      pullSecretRef: localRef(),
      runningCount: int32({ minimum: 0 }),
      size: int32({ minimum: 0 }),
      skipMachinePools: bool(),
    },
    ['baseDomain', 'imageSetRef', 'platform', 'size'],
  );
}

function clusterPoolStatus(): Schema {
  return obj(
    {
      conditions: hiveConditions(),
      ready: int32(),
      size: int32(),
      standby: int32(),
    },
    ['ready', 'size'],
  );
}

/** ClusterPool, with the scale subresource that `oc scale clusterpool --replicas=N` drives (REFERENCE §4.1). */
export function clusterPoolCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterPool',
    plural: 'clusterpools',
    shortNames: ['cp'],
    scope: 'Namespaced',
    required: ['spec'],
    spec: clusterPoolSpec(),
    status: clusterPoolStatus(),
    scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
    printerColumns: [
      { jsonPath: '.spec.size', name: 'Size', type: 'string' },
      { jsonPath: '.status.standby', name: 'Standby', type: 'string' },
      { jsonPath: '.status.ready', name: 'Ready', type: 'string' },
      { jsonPath: '.spec.baseDomain', name: 'BaseDomain', type: 'string' },
      { jsonPath: '.spec.imageSetRef.name', name: 'ImageSet', type: 'string' },
    ],
  });
}
