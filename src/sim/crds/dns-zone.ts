import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { awsAssumeRole, azureCloudName } from './platform.js';
import { localRef } from './refs.js';
import { arr, bool, dateTime, int64, obj, str } from './schema-builders.js';

/** DNSZone: the child zone `<cd>-zone` Hive creates for `manageDNS` clusters (REFERENCE §2.7). */
export function dnsZoneCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'DNSZone',
    plural: 'dnszones',
    scope: 'Namespaced',
    spec: obj(
      {
        aws: obj({
          additionalTags: arr(obj({ key: str(), value: str() }, ['key', 'value'])),
          credentialsAssumeRole: awsAssumeRole(),
          credentialsSecretRef: localRef(),
          region: str(),
        }),
        azure: obj(
          {
            cloudName: azureCloudName(),
            credentialsSecretRef: localRef(),
            resourceGroupName: str(),
          },
          ['credentialsSecretRef', 'resourceGroupName'],
        ),
        gcp: obj({ credentialsSecretRef: localRef() }, ['credentialsSecretRef']),
        linkToParentDomain: bool(),
        preserveOnDelete: bool(),
        zone: str(),
      },
      ['zone'],
    ),
    status: obj({
      aws: obj({ zoneID: str() }),
      azure: obj({}),
      conditions: hiveConditions(),
      gcp: obj({ zoneName: str() }),
      lastSyncGeneration: int64(),
      lastSyncTimestamp: dateTime(),
      nameServers: arr(str()),
    }),
  });
}
