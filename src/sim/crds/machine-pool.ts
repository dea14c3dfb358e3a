import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { localRef } from './refs.js';
import { arr, dateTime, int, int32, int64, obj, opaque, str, stringMap, type Schema } from './schema-builders.js';

/** MachinePoolPlatform: AWS is modelled; the other clouds keep their required keys and are otherwise opaque. */
function machinePoolPlatform(): Schema {
  return obj({
    aws: obj(
      {
        additionalSecurityGroupIDs: arr(str()),
        amiID: str(),
        metadataService: obj({ authentication: str() }),
        rootVolume: obj({ iops: int(), kmsKeyARN: str(), size: int(), type: str() }, ['size', 'type']),
        spotMarketOptions: obj({ maxPrice: str() }),
        subnets: arr(str()),
        type: str(),
        userTags: stringMap(),
        zones: arr(str()),
      },
      ['rootVolume', 'type'],
    ),
    azure: opaque({}, ['osDisk', 'type']),
    gcp: opaque({}, ['type']),
    ibmcloud: opaque(),
    nutanix: opaque({
      gpus: arr(
        opaque({}, ['type'], {
          // Upstream's rule; not evaluated here, but its presence decides the "<nil>" cause like on a real server.
          'x-kubernetes-validations': [
            {
              message: 'deviceID configuration is required when type is DeviceID, and forbidden otherwise',
              rule: "has(self.type) && self.type == 'DeviceID' ?  has(self.deviceID) : !has(self.deviceID)",
            },
            {
              message: 'name configuration is required when type is Name, and forbidden otherwise',
              rule: "has(self.type) && self.type == 'Name' ?  has(self.name) : !has(self.name)",
            },
          ],
        }),
      ),
    }),
    openstack: opaque({}, ['flavor']),
    vsphere: opaque(),
  });
}

const taint = () => obj({ effect: str(), key: str(), timeAdded: dateTime(), value: str() }, ['effect', 'key']);

/** MachinePool `<cd>-<spec.name>`, with a scale subresource on `.spec.replicas` (REFERENCE §7). */
export function machinePoolCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'MachinePool',
    plural: 'machinepools',
    scope: 'Namespaced',
    spec: obj(
      {
        autoscaling: obj({ maxReplicas: int32(), minReplicas: int32() }, ['maxReplicas', 'minReplicas']),
        clusterDeploymentRef: localRef(),
        labels: stringMap(),
        machineLabels: stringMap(),
        name: str(),
        platform: machinePoolPlatform(),
        replicas: int64(),
        taints: arr(taint()),
      },
      ['clusterDeploymentRef', 'name', 'platform'],
    ),
    status: obj({
      conditions: hiveConditions(),
      controlledByReplica: int64(),
      machineSets: arr(
        obj(
          {
            errorMessage: str(),
            errorReason: str(),
            maxReplicas: int32(),
            minReplicas: int32(),
            name: str(),
            readyReplicas: int32(),
            replicas: int32(),
          },
          ['maxReplicas', 'minReplicas', 'name', 'replicas'],
        ),
      ),
      ownedLabels: arr(str()),
      ownedMachineLabels: arr(str()),
      ownedTaints: arr(obj({ effect: str(), key: str() })),
      replicas: int32(),
    }),
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    printerColumns: [
      { jsonPath: '.spec.name', name: 'PoolName', type: 'string' },
      { jsonPath: '.spec.clusterDeploymentRef.name', name: 'ClusterDeployment', type: 'string' },
      { jsonPath: '.spec.replicas', name: 'Replicas', type: 'integer' },
    ],
  });
}
