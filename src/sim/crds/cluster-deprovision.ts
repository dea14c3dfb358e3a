import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { awsAssumeRole, azureCloudName } from './platform.js';
import { localRef } from './refs.js';
import { arr, bool, int32, obj, str, type Schema } from './schema-builders.js';

/** ClusterDeprovisionPlatform: what the uninstaller needs per cloud (not the same struct as the CD platform). */
function deprovisionPlatform(): Schema {
  return obj({
    aws: obj(
      {
        credentialsAssumeRole: awsAssumeRole(),
        credentialsSecretRef: localRef(),
        hostedZoneRole: str(),
        region: str(),
      },
      ['region'],
    ),
    azure: obj({
      baseDomainResourceGroupName: str(),
      cloudName: azureCloudName(),
      credentialsSecretRef: localRef(),
      resourceGroupName: str(),
    }),
    gcp: obj({ credentialsSecretRef: localRef(), networkProjectID: str(), region: str() }, ['region']),
    ibmcloud: obj({ baseDomain: str(), credentialsSecretRef: localRef(), region: str() }, [
      'baseDomain',
      'credentialsSecretRef',
      'region',
    ]),
    nutanix: obj(
      {
        certificatesSecretRef: localRef(),
        credentialsSecretRef: localRef(),
        prismCentral: obj({ address: str(), port: int32() }, ['address', 'port']),
      },
      ['credentialsSecretRef', 'prismCentral'],
    ),
    openstack: obj({ certificatesSecretRef: localRef(), cloud: str(), credentialsSecretRef: localRef() }, ['cloud']),
    vsphere: obj(
      {
        certificatesSecretRef: localRef(),
        credentialsSecretRef: localRef(),
        vCenter: str(),
        vCenters: arr(str()),
      },
      ['certificatesSecretRef', 'credentialsSecretRef'],
    ),
  });
}

/** ClusterDeprovision: same name and namespace as its CD; `status.completed` ends the deletion (REFERENCE §2.6). */
export function clusterDeprovisionCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterDeprovision',
    plural: 'clusterdeprovisions',
    shortNames: ['cdr'],
    scope: 'Namespaced',
    spec: obj(
      {
        baseDomain: str(),
        clusterID: str(),
        clusterName: str(),
        infraID: str(),
        metadataJSONSecretRef: localRef(),
        platform: deprovisionPlatform(),
      },
      ['infraID'],
    ),
    status: obj({ completed: bool(), conditions: hiveConditions() }),
    printerColumns: [
      { jsonPath: '.spec.infraID', name: 'InfraID', type: 'string' },
      { jsonPath: '.spec.clusterID', name: 'ClusterID', type: 'string' },
      { jsonPath: '.status.completed', name: 'Completed', type: 'boolean' },
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
    ],
  });
}
