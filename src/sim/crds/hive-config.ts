import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { azureCloudName } from './platform.js';
import { localRef, namespacedRef } from './refs.js';
import {
  arr,
  bool,
  duration,
  enumOf,
  int,
  int32,
  int64,
  mapOf,
  obj,
  opaque,
  str,
  stringMap,
  type Schema,
} from './schema-builders.js';

const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** The `ControllerName` constants HiveConfig accepts in controllersConfig (apis/hive/v1/hiveconfig_types.go). */
const CONTROLLER_NAMES = [
  'clusterDeployment',
  'clusterrelocate',
  'clusterstate',
  'clusterversion',
  'controlPlaneCerts',
  'dnsendpoint',
  'dnszone',
  'remoteingress',
  'remotemachineset',
  'machinepool',
  'syncidentityprovider',
  'unreachable',
  'velerobackup',
  'clusterprovision',
  'clusterDeprovision',
  'clusterpool',
  'clusterpoolnamespace',
  'hibernation',
  'clusterclaim',
  'metrics',
  'clustersync',
];

/** corev1.ResourceRequirements: quantities are int-or-string, strings checked against the Quantity syntax. */
function resourceRequirements(): Schema {
  const quantity = () => ({ 'x-kubernetes-int-or-string': true, pattern: QUANTITY_PATTERN });
  return obj({
    claims: arr(opaque({ name: str() }, ['name']), {
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-list-type': 'map',
    }),
    limits: mapOf(quantity()),
    requests: mapOf(quantity()),
  });
}

function controllerConfig(): Schema {
  return obj({
    clientBurst: int32(),
    clientQPS: int32(),
    concurrentReconciles: int32(),
    queueBurst: int32(),
    queueQPS: int32(),
    replicas: int32(),
    resources: resourceRequirements(),
  });
}

function hiveConfigSpec(): Schema {
  return obj({
    additionalCertificateAuthoritiesSecretRef: arr(localRef()),
    argoCDConfig: obj({ enabled: bool(), namespace: str() }, ['enabled']),
    awsPrivateLink: opaque(
      {
        credentialsSecretRef: localRef(),
        dnsRecordType: str({ enum: ['Alias', 'ARecord'], default: 'Alias' }),
      },
      ['credentialsSecretRef'],
    ),
    backup: obj({ minBackupPeriodSeconds: int(), velero: obj({ enabled: bool(), namespace: str() }) }),
    clusterVersionPollInterval: duration(),
    controllersConfig: obj({
      controllers: arr(obj({ config: controllerConfig(), name: str({ enum: CONTROLLER_NAMES }) }, ['config', 'name'])),
      default: controllerConfig(),
    }),
    // Only "enabled" exists: it makes Hive annotate CDs with protected-delete at install completion (REFERENCE §8).
    deleteProtection: enumOf('enabled'),
    deploymentConfig: arr(
      obj(
        {
          deploymentName: enumOf('hive-controllers', 'hive-clustersync', 'hiveadmission'),
          resources: resourceRequirements(),
        },
        ['deploymentName'],
      ),
    ),
    deprovisionsDisabled: bool(),
    disabledControllers: arr(str()),
    exportMetrics: bool(),
    failedProvisionConfig: obj({
      aws: obj({ bucket: str(), credentialsSecretRef: localRef(), region: str(), serviceEndpoint: str() }, [
        'credentialsSecretRef',
      ]),
      retryReasons: arr(str()),
      skipGatherLogs: bool(),
    }),
    featureGates: obj({
      custom: obj({ enabled: arr(str()) }, undefined, { nullable: true }),
      featureSet: enumOf('', 'Custom'),
    }),
    globalPullSecretRef: localRef(),
    hiveImagePullSecretRef: localRef(),
    logLevel: str(),
    machinePoolPollInterval: duration(),
    maintenanceMode: bool(),
    managedDomains: arr(
      obj(
        {
          aws: obj({ credentialsSecretRef: localRef(), region: str() }, ['credentialsSecretRef']),
          azure: obj({ cloudName: azureCloudName(), credentialsSecretRef: localRef(), resourceGroupName: str() }, [
            'credentialsSecretRef',
            'resourceGroupName',
          ]),
          domains: arr(str()),
          gcp: obj({ credentialsSecretRef: localRef() }, ['credentialsSecretRef']),
        },
        ['domains'],
      ),
    ),
    metricsConfig: obj({
      additionalClusterDeploymentLabels: stringMap(),
      metricsWithDuration: arr(
        obj(
          {
            duration: duration(),
            name: enumOf(
              'currentStopping',
              'currentResuming',
              'currentWaitingForCO',
              'currentClusterSyncFailing',
              'cumulativeHibernated',
              'cumulativeResumed',
            ),
          },
          ['duration', 'name'],
        ),
      ),
    }),
    privateLink: obj({ gcp: opaque({ credentialsSecretRef: localRef() }, ['credentialsSecretRef']) }),
    releaseImageVerificationConfigMapRef: namespacedRef(),
    serviceProviderCredentialsConfig: obj({ aws: obj({ credentialsSecretRef: localRef() }) }),
    syncSetReapplyInterval: duration(),
    targetNamespace: str(),
  });
}

/** HiveConfig: cluster-scoped; only the object named `hive` is honoured (REFERENCE §1, §8). */
export function hiveConfigCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'HiveConfig',
    plural: 'hiveconfigs',
    scope: 'Cluster',
    spec: hiveConfigSpec(),
    status: obj({
      aggregatorClientCAHash: str(),
      conditions: hiveConditions(),
      configApplied: bool(),
      observedGeneration: int64(),
    }),
  });
}
