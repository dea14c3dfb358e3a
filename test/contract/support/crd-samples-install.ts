// Upstream-CRD corpus (crd-sample.ts): What an install and its machines are made of: ClusterDeprovision, ClusterProvision, MachinePool, DNSZone, SyncSet, SelectorSyncSet, ClusterDeploymentCustomization.
import { meta, hive, v, bad, type Sample } from './crd-sample.js';

export const installSamples: Record<string, Sample[]> = {
  ClusterDeprovision: [
    v(
      'aws deprovision',
      hive(
        'ClusterDeprovision',
        {
          infraID: 'i',
          clusterID: 'c',
          clusterName: 'n',
          baseDomain: 'b',
          platform: { aws: { region: 'r', credentialsSecretRef: { name: 'c' }, hostedZoneRole: 'h' } },
        },
        {
          status: {
            completed: true,
            conditions: [{ type: 'AuthenticationFailure', status: 'False', reason: 'AuthenticationSucceeded' }],
          },
        },
      ),
    ),
    bad('no infraID', hive('ClusterDeprovision', { clusterID: 'c' })),
    bad('azure cloudName', hive('ClusterDeprovision', { infraID: 'i', platform: { azure: { cloudName: 'Nope' } } })),
    bad('completed as a string', hive('ClusterDeprovision', { infraID: 'i' }, { status: { completed: 'yes' } })),
  ],
  ClusterProvision: [
    v(
      'provision',
      hive(
        'ClusterProvision',
        {
          attempt: 0,
          stage: 'initializing',
          clusterDeploymentRef: { name: 'c1' },
          podSpec: { containers: [] },
          infraID: 'i',
          metadataJSON: 'eyJhIjoxfQ==',
        },
        { status: { jobRef: { name: 'j' } } },
      ),
    ),
    bad(
      'no podSpec',
      hive('ClusterProvision', { attempt: 0, stage: 'provisioning', clusterDeploymentRef: { name: 'c1' } }),
    ),
    bad(
      'attempt as a word',
      hive('ClusterProvision', { attempt: 'first', stage: 'complete', clusterDeploymentRef: {}, podSpec: {} }),
    ),
    bad(
      'metadataJSON not base64',
      hive('ClusterProvision', {
        attempt: 1,
        stage: 'failed',
        clusterDeploymentRef: {},
        podSpec: {},
        metadataJSON: '{not base64}',
      }),
    ),
  ],
  MachinePool: [
    v(
      'aws worker pool',
      hive(
        'MachinePool',
        {
          clusterDeploymentRef: { name: 'c1' },
          name: 'worker',
          replicas: 3,
          platform: { aws: { type: 'm6a.xlarge', rootVolume: { size: 120, type: 'gp3', iops: 3000 }, zones: ['a'] } },
          labels: { a: 'b' },
          taints: [{ key: 'k', effect: 'NoSchedule' }],
        },
        { status: { replicas: 3, machineSets: [{ name: 'm', replicas: 3, minReplicas: 3, maxReplicas: 3 }] } },
      ),
    ),
    v(
      'autoscaling',
      hive('MachinePool', {
        clusterDeploymentRef: { name: 'c1' },
        name: 'infra',
        autoscaling: { minReplicas: 1, maxReplicas: 3 },
        platform: { gcp: { type: 'n1' } },
      }),
    ),
    bad(
      'replicas as a word',
      hive('MachinePool', { clusterDeploymentRef: { name: 'c1' }, name: 'w', replicas: 'three', platform: {} }),
    ),
    bad('no platform', hive('MachinePool', { clusterDeploymentRef: { name: 'c1' }, name: 'w' })),
    bad(
      'aws without rootVolume',
      hive('MachinePool', { clusterDeploymentRef: {}, name: 'w', platform: { aws: { type: 't' } } }),
    ),
    bad(
      'autoscaling without max',
      hive('MachinePool', { clusterDeploymentRef: {}, name: 'w', platform: {}, autoscaling: { minReplicas: 1 } }),
    ),
    bad(
      'taint without effect',
      hive('MachinePool', { clusterDeploymentRef: {}, name: 'w', platform: {}, taints: [{ key: 'k' }] }),
    ),
    bad('gcp without type', hive('MachinePool', { clusterDeploymentRef: {}, name: 'w', platform: { gcp: {} } })),
  ],
  DNSZone: [
    v(
      'child zone',
      hive(
        'DNSZone',
        {
          zone: 'c1.example.com',
          linkToParentDomain: true,
          preserveOnDelete: false,
          aws: { region: 'r', credentialsSecretRef: {}, additionalTags: [{ key: 'k', value: 'v' }] },
        },
        { status: { nameServers: ['ns1'], aws: { zoneID: 'Z1' }, lastSyncGeneration: 1 } },
      ),
    ),
    bad('no zone', hive('DNSZone', { aws: {} })),
    bad('azure without resource group', hive('DNSZone', { zone: 'z', azure: { credentialsSecretRef: { name: 'c' } } })),
  ],
  SyncSet: [
    v(
      'sync set',
      hive('SyncSet', {
        clusterDeploymentRefs: [{ name: 'c1' }, {}],
        resourceApplyMode: 'Sync',
        applyBehavior: 'CreateOrUpdate',
        resources: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: 'b' } },
        ],
        patches: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', patch: '{}', patchType: 'merge' }],
        secretMappings: [{ sourceRef: { name: 's' }, targetRef: { name: 't', namespace: 'n' } }],
      }),
    ),
    bad('applyBehavior', hive('SyncSet', { clusterDeploymentRefs: [], applyBehavior: 'Sometimes' })),
    bad('no clusterDeploymentRefs', hive('SyncSet', { resources: [] })),
    bad(
      'resource without kind',
      hive('SyncSet', { clusterDeploymentRefs: [], resources: [{ apiVersion: 'v1', metadata: { name: 'x' } }] }),
    ),
    bad(
      'patch without patch',
      hive('SyncSet', { clusterDeploymentRefs: [], patches: [{ apiVersion: 'v1', kind: 'K', name: 'n' }] }),
    ),
  ],
  SelectorSyncSet: [
    v('selector sync set', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'SelectorSyncSet',
      metadata: meta('sss'),
      spec: { clusterDeploymentSelector: { matchLabels: { env: 'prod' } }, resources: [] },
    }),
    bad('expression without key', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'SelectorSyncSet',
      metadata: meta('sss'),
      spec: { clusterDeploymentSelector: { matchExpressions: [{ operator: 'Exists' }] } },
    }),
  ],
  ClusterDeploymentCustomization: [
    v(
      'customization',
      hive(
        'ClusterDeploymentCustomization',
        {
          installConfigPatches: [{ op: 'replace', path: '/metadata/name', value: 'x' }],
          installerManifestPatches: [
            { manifestSelector: { glob: '*.yaml' }, patches: [{ op: 'add', path: '/a', valueJSON: '1' }] },
          ],
        },
        {
          status: {
            clusterPoolRef: { name: 'p' },
            conditions: [
              {
                type: 'Available',
                status: 'False',
                reason: 'Reserved',
                message: 'm',
                lastTransitionTime: '2026-01-02T03:04:05Z',
              },
            ],
          },
        },
      ),
    ),
    bad('unknown op', hive('ClusterDeploymentCustomization', { installConfigPatches: [{ op: 'explode', path: '/' }] })),
    bad('missing path', hive('ClusterDeploymentCustomization', { installConfigPatches: [{ op: 'remove' }] })),
    bad('no spec', hive('ClusterDeploymentCustomization')),
    bad(
      'condition status and reason syntax',
      hive(
        'ClusterDeploymentCustomization',
        {},
        {
          status: {
            conditions: [
              {
                type: 'Available',
                status: 'Maybe',
                reason: 'not ok',
                message: '',
                lastTransitionTime: '2026-01-02T03:04:05Z',
              },
            ],
          },
        },
      ),
    ),
  ],
};
