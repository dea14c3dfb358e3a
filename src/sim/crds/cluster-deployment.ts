import { hiveConditions } from './conditions.js';
import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { labelSelector } from './label-selector.js';
import { clusterPlatform } from './platform.js';
import { localRef, requiredNameRef } from './refs.js';
import { arr, bool, dateTime, duration, enumOf, int, int32, obj, opaque, str, type Schema } from './schema-builders.js';

/** corev1.EnvVar: `valueFrom` sources are kept as sent. */
export function envVar(): Schema {
  return obj({ name: str(), value: str(), valueFrom: opaque() }, ['name']);
}

/** HAProxy durations accept a bare 0 as well (openshift/api IngressControllerTuningOptions). */
const haproxyDuration = () => str({ pattern: '^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|μs|ms|s|m|h))+)$' });

function ingressTuningOptions(): Schema {
  return obj({
    clientFinTimeout: str({ format: 'duration' }),
    clientTimeout: str({ format: 'duration' }),
    configurationManagement: enumOf('Dynamic', 'ForkAndReload'),
    connectTimeout: haproxyDuration(),
    headerBufferBytes: int32({ minimum: 16384 }),
    headerBufferMaxRewriteBytes: int32({ minimum: 4096 }),
    healthCheckInterval: haproxyDuration(),
    httpKeepAliveTimeout: str({
      maxLength: 16,
      minLength: 1,
      'x-kubernetes-validations': [
        {
          message:
            'httpKeepAliveTimeout must be a valid duration string composed of an unsigned integer ' +
            'value, optionally followed by a decimal fraction and a unit suffix (ms, s, m)',
          rule: "self.matches('^([0-9]+(\\\\.[0-9]+)?(ms|s|m))+$')",
        },
      ],
    }),
    maxConnections: int32({
      'x-kubernetes-validations': [
        {
          message: 'maxConnections must be 0, -1, or between 2000 and 2000000',
          rule: 'self == 0 || self == -1 || (self >= 2000 && self <= 2000000)',
        },
      ],
    }),
    reloadInterval: haproxyDuration(),
    serverFinTimeout: str({ format: 'duration' }),
    serverTimeout: str({ format: 'duration' }),
    threadCount: int32({ maximum: 64, minimum: 1 }),
    tlsInspectDelay: str({ format: 'duration' }),
    tunnelTimeout: str({ format: 'duration' }),
  });
}

function clusterDeploymentSpec(): Schema {
  return obj(
    {
      baseDomain: str(),
      boundServiceAccountSigningKeySecretRef: localRef(),
      certificateBundles: arr(
        obj(
          {
            certificateSecretRef: localRef(),
            generate: bool(),
            name: str(),
          },
          ['certificateSecretRef', 'name'],
        ),
      ),
      clusterInstallRef: obj({ group: str(), kind: str(), name: str(), version: str() }, [
        'group',
        'kind',
        'name',
        'version',
      ]),
      clusterMetadata: obj(
        {
          adminKubeconfigSecretRef: localRef(),
          adminPasswordSecretRef: localRef(),
          clusterID: str(),
          infraID: str(),
          metadataJSONSecretRef: localRef(),
          platform: obj({
            aws: obj({ hostedZoneRole: str() }),
            azure: obj({ resourceGroupName: str() }, ['resourceGroupName']),
            gcp: obj({ networkProjectID: str() }),
          }),
        },
        ['adminKubeconfigSecretRef', 'clusterID', 'infraID'],
      ),
      clusterName: str(),
      clusterPoolRef: obj(
        {
          claimName: str(),
          claimedTimestamp: dateTime(),
          // Go field CustomizationRef, JSON name clusterDeploymentCustomization (REFERENCE §11.1).
          clusterDeploymentCustomization: localRef(),
          namespace: str(),
          poolName: str(),
        },
        ['namespace', 'poolName'],
      ),
      controlPlaneConfig: obj({
        apiServerIPOverride: str(),
        apiURLOverride: str(),
        servingCertificates: obj({
          additional: arr(obj({ domain: str(), name: str() }, ['domain', 'name'])),
          default: str(),
        }),
      }),
      hibernateAfter: duration(),
      ingress: arr(
        obj(
          {
            domain: str(),
            httpErrorCodePages: obj({ name: str() }, ['name']),
            name: str(),
            namespaceSelector: labelSelector(),
            routeSelector: labelSelector(),
            servingCertificate: str(),
            tuningOptions: ingressTuningOptions(),
          },
          ['domain', 'name'],
        ),
        { maxItems: 16 },
      ),
      installAttemptsLimit: int32(),
      installed: bool(),
      manageDNS: bool(),
      platform: clusterPlatform(),
      powerState: enumOf('', 'Running', 'Hibernating'),
      preserveOnDelete: bool(),
      provisioning: obj({
        customizationRef: localRef(),
        imageSetRef: requiredNameRef(),
        installConfigSecretRef: localRef(),
        installerEnv: arr(envVar()),
        installerImageOverride: str(),
        manifestsConfigMapRef: localRef(),
        manifestsSecretRef: localRef(),
        releaseImage: str(),
        sshKnownHosts: arr(str()),
        sshPrivateKeySecretRef: localRef(),
      }),
      pullSecretRef: localRef(),
    },
    ['baseDomain', 'clusterName', 'platform'],
  );
}

function clusterDeploymentStatus(): Schema {
  return obj({
    apiURL: str(),
    certificateBundles: arr(obj({ generated: bool(), name: str() }, ['generated', 'name'])),
    cliImage: str(),
    // A copy of the spoke's ClusterVersion status (sync-clusterversion-status annotation); not modelled.
    clusterVersionStatus: opaque({}, ['availableUpdates', 'desired', 'observedGeneration', 'versionHash']),
    conditions: hiveConditions(),
    installRestarts: int(),
    installStartedTimestamp: dateTime(),
    installVersion: str(),
    installedTimestamp: dateTime(),
    installerImage: str(),
    platformStatus: obj({
      aws: obj({
        privateLink: obj({
          hostedZoneID: str(),
          vpcEndpointID: str(),
          vpcEndpointService: obj({
            additionalAllowedPrincipals: arr(str()),
            defaultAllowedPrincipal: str(),
            id: str(),
            name: str(),
          }),
        }),
      }),
      gcp: obj({
        privateServiceConnect: obj({
          endpoint: str(),
          endpointAddress: str(),
          serviceAttachment: str(),
          serviceAttachmentFirewall: str(),
          serviceAttachmentSubnet: str(),
        }),
      }),
    }),
    // Observed power state: Running, Hibernating and the transition states (REFERENCE §2.2); no CRD enum.
    powerState: str(),
    provisionRef: localRef(),
    webConsoleURL: str(),
  });
}

export function clusterDeploymentCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterDeployment',
    plural: 'clusterdeployments',
    shortNames: ['cd'],
    scope: 'Namespaced',
    spec: clusterDeploymentSpec(),
    status: clusterDeploymentStatus(),
    printerColumns: [
      { jsonPath: '.spec.clusterMetadata.infraID', name: 'InfraID', type: 'string' },
      { jsonPath: '.metadata.labels.hive\\.openshift\\.io/cluster-platform', name: 'Platform', type: 'string' },
      { jsonPath: '.metadata.labels.hive\\.openshift\\.io/cluster-region', name: 'Region', type: 'string' },
      { jsonPath: '.metadata.labels.hive\\.openshift\\.io/version', name: 'Version', type: 'string' },
      { jsonPath: '.metadata.labels.hive\\.openshift\\.io/cluster-type', name: 'ClusterType', type: 'string' },
      { jsonPath: ".status.conditions[?(@.type=='Provisioned')].reason", name: 'ProvisionStatus', type: 'string' },
      { jsonPath: '.status.powerState', name: 'PowerState', type: 'string' },
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
    ],
  });
}
