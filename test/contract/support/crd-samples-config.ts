// Upstream-CRD corpus (crd-sample.ts): HiveConfig and ClusterSync.
import { meta, v, bad, type Sample } from './crd-sample.js';

export const configSamples: Record<string, Sample[]> = {
  HiveConfig: [
    v('hive config', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: {
        deleteProtection: 'enabled',
        syncSetReapplyInterval: '2h',
        machinePoolPollInterval: '30m',
        targetNamespace: 'hive',
        maintenanceMode: false,
        deprovisionsDisabled: true,
        disabledControllers: ['hibernation'],
        globalPullSecretRef: { name: 'g' },
        managedDomains: [{ domains: ['example.com'], aws: { credentialsSecretRef: { name: 'c' } } }],
        controllersConfig: {
          default: { concurrentReconciles: 5, resources: { requests: { cpu: '100m', memory: 1024 } } },
          controllers: [{ name: 'clustersync', config: { replicas: 2 } }],
        },
        failedProvisionConfig: { skipGatherLogs: true, retryReasons: ['AWSVPCLimitExceeded'] },
        featureGates: { featureSet: 'Custom', custom: null },
        awsPrivateLink: { credentialsSecretRef: { name: 'pl' } },
      },
      status: { observedGeneration: 1, configApplied: true, conditions: [{ type: 'Ready', status: 'True' }] },
    }),
    bad('deleteProtection', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: { deleteProtection: 'disabled' },
    }),
    bad('reapply interval in days', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: { syncSetReapplyInterval: '1d' },
    }),
    bad('controller name', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: { controllersConfig: { controllers: [{ name: 'bogus', config: {} }] } },
    }),
    bad('managed domain without domains', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: { managedDomains: [{ aws: { credentialsSecretRef: {} } }] },
    }),
    bad('quantity syntax', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'HiveConfig',
      metadata: meta('hive'),
      spec: { controllersConfig: { default: { resources: { limits: { cpu: 'lots' } } } } },
    }),
  ],
  ClusterSync: [
    v('cluster sync', {
      apiVersion: 'hiveinternal.openshift.io/v1alpha1',
      kind: 'ClusterSync',
      metadata: meta('c1', 'ns'),
      spec: { junk: 1 },
      status: {
        firstSuccessTime: '2026-01-02T03:04:05Z',
        controlledByReplica: 0,
        syncSets: [
          {
            name: 'ss',
            observedGeneration: 1,
            result: 'Success',
            lastTransitionTime: '2026-01-02T03:04:05Z',
            resourcesToDelete: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' }],
          },
        ],
        conditions: [{ type: 'Failed', status: 'False' }],
      },
    }),
    bad('result', {
      apiVersion: 'hiveinternal.openshift.io/v1alpha1',
      kind: 'ClusterSync',
      metadata: meta('c1', 'ns'),
      status: {
        selectorSyncSets: [
          { name: 's', observedGeneration: 1, result: 'Maybe', lastTransitionTime: '2026-01-02T03:04:05Z' },
        ],
      },
    }),
    bad('entry without name', {
      apiVersion: 'hiveinternal.openshift.io/v1alpha1',
      kind: 'ClusterSync',
      metadata: meta('c1', 'ns'),
      status: { syncSets: [{ observedGeneration: 1, result: 'Success', lastTransitionTime: '2026-01-02T03:04:05Z' }] },
    }),
  ],
};
