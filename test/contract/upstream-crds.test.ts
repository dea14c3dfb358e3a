import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSchema, type StatusCause } from '../../src/sim/apiserver/schema/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { needs } from '../support/needs.js';
import { upstreamCrds, upstreamCrdsMissing } from '../support/upstream-crds.js';
import { startTarget, type Target } from './support/target.js';
import { kubeHttp } from './support/kube-http.js';

// The upstream Hive CRDs (test data outside the repository, test/support/upstream-crds.ts). Our own CRDs must
// accept and reject the same objects, with the same causes, for every field we model; both go through the same
// engine.
const loadUpstream = () => new Map<string, any>(upstreamCrds().map((crd) => [crd.spec.names.kind, crd]));

const schemaOf = (crd: any) => compileSchema(crd.spec.versions[0].schema.openAPIV3Schema);
const sorted = (causes: StatusCause[]) =>
  [...causes].sort((a, b) => `${a.field}|${a.message}`.localeCompare(`${b.field}|${b.message}`));

interface Sample {
  name: string;
  valid: boolean;
  obj: Record<string, any>;
}

const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}) });
const hive = (kind: string, spec?: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'hive.openshift.io/v1',
  kind,
  metadata: meta('sample', 'ns'),
  ...(spec === undefined ? {} : { spec }),
  ...extra,
});
const v = (name: string, obj: Record<string, any>): Sample => ({ name, valid: true, obj });
const bad = (name: string, obj: Record<string, any>): Sample => ({ name, valid: false, obj });

const awsCd = () => ({
  baseDomain: 'example.com',
  clusterName: 'c1',
  platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
  pullSecretRef: { name: 'pull-secret' },
  provisioning: { installConfigSecretRef: { name: 'ic' }, imageSetRef: { name: 'img4.13' } },
});
const cd = (patch: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  hive('ClusterDeployment', { ...awsCd(), ...patch }, extra);

const samples: Record<string, Sample[]> = {
  ClusterDeployment: [
    v('minimal aws', cd()),
    v('empty refs get defaults', cd({ pullSecretRef: {}, provisioning: { installConfigSecretRef: {} } })),
    v(
      'everything a lifecycle service sets',
      cd({
        powerState: 'Hibernating',
        hibernateAfter: '1h30m',
        installAttemptsLimit: 1,
        installed: false,
        preserveOnDelete: true,
        manageDNS: false,
        clusterPoolRef: {
          namespace: 'pools',
          poolName: 'p',
          claimName: 'c',
          claimedTimestamp: '2026-01-02T03:04:05Z',
          clusterDeploymentCustomization: {},
        },
        clusterMetadata: {
          clusterID: 'id',
          infraID: 'infra',
          adminKubeconfigSecretRef: { name: 'k' },
          adminPasswordSecretRef: { name: 'p' },
          platform: { aws: { hostedZoneRole: 'r' } },
        },
        controlPlaneConfig: {
          apiURLOverride: 'https://api',
          servingCertificates: { default: 'd', additional: [{ name: 'n', domain: 'x.com' }] },
        },
        ingress: [
          {
            name: 'default',
            domain: 'apps.example.com',
            routeSelector: { matchLabels: { a: 'b' } },
            tuningOptions: { threadCount: 4, maxConnections: 5000, connectTimeout: '5s' },
          },
        ],
        certificateBundles: [{ name: 'b', generate: true, certificateSecretRef: { name: 's' } }],
        provisioning: {
          installConfigSecretRef: { name: 'ic' },
          releaseImage: 'quay.io/x:1',
          installerEnv: [{ name: 'A', value: 'b' }],
          sshKnownHosts: ['h'],
        },
      }),
    ),
    v(
      'azure',
      cd({
        platform: {
          azure: {
            region: 'eastus',
            cloudName: 'AzureUSGovernmentCloud',
            credentialsSecretRef: { name: 'c' },
            baseDomainResourceGroupName: 'rg',
          },
        },
      }),
    ),
    v(
      'gcp',
      cd({ platform: { gcp: { region: 'us-east1', discardLocalSsdOnHibernate: true, credentialsSecretRef: {} } } }),
    ),
    v(
      'openstack',
      cd({ platform: { openstack: { cloud: 'c', credentialsSecretRef: { name: 'x' }, trunkSupport: true } } }),
    ),
    v(
      'vsphere',
      cd({
        platform: {
          vsphere: {
            vCenter: 'vc',
            datacenter: 'dc',
            credentialsSecretRef: { name: 'a' },
            certificatesSecretRef: { name: 'b' },
          },
        },
      }),
    ),
    v(
      'nutanix',
      cd({
        platform: { nutanix: { prismCentral: { address: 'pc', port: 9440 }, credentialsSecretRef: { name: 'a' } } },
      }),
    ),
    v(
      'agent, none, baremetal, ibmcloud',
      cd({
        platform: {
          agentBareMetal: { agentSelector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] } },
          none: {},
          baremetal: { libvirtSSHPrivateKeySecretRef: {} },
          ibmcloud: { region: 'r', credentialsSecretRef: { name: 'c' } },
        },
      }),
    ),
    v(
      'observed status',
      cd(
        {},
        {
          status: {
            powerState: 'WaitingForClusterOperators',
            installRestarts: 2,
            apiURL: 'https://api',
            webConsoleURL: 'https://console',
            installedTimestamp: '2026-01-02T03:04:05Z',
            provisionRef: { name: 'c1-0-abcde' },
            installerImage: 'i',
            cliImage: '<NONE>',
            conditions: [
              {
                type: 'Hibernating',
                status: 'False',
                reason: 'ResumingOrRunning',
                message: 'm',
                lastTransitionTime: '2026-01-02T03:04:05Z',
              },
            ],
          },
        },
      ),
    ),
    v(
      'unknown fields are pruned alike',
      cd({ notAField: 1, platform: { aws: { region: 'r', alsoNotAField: true } } }, { notTopLevel: 1 }),
    ),
    bad('powerState not in the enum', cd({ powerState: 'Resuming' })),
    bad('hibernateAfter in days', cd({ hibernateAfter: '1d' })),
    bad('missing baseDomain and clusterName', { ...cd(), spec: { platform: { aws: { region: 'r' } } } }),
    bad('installed as a string', cd({ installed: 'true' })),
    bad(
      'azure cloudName',
      cd({ platform: { azure: { region: 'r', cloudName: 'AzureMarsCloud', credentialsSecretRef: { name: 'c' } } } }),
    ),
    bad('aws without region', cd({ platform: { aws: { credentialsSecretRef: { name: 'c' } } } })),
    bad(
      'clusterMetadata without infraID',
      cd({ clusterMetadata: { clusterID: 'id', adminKubeconfigSecretRef: { name: 'k' } } }),
    ),
    bad('clusterPoolRef without poolName', cd({ clusterPoolRef: { namespace: 'p' } })),
    bad('17 ingresses', cd({ ingress: Array.from({ length: 17 }, (_, i) => ({ name: `i${i}`, domain: 'd' })) })),
    bad(
      'ingress without domain, threadCount too high',
      cd({ ingress: [{ name: 'default', tuningOptions: { threadCount: 100 } }] }),
    ),
    bad('installAttemptsLimit as a string', cd({ installAttemptsLimit: '3' })),
    bad('imageSetRef without name', cd({ provisioning: { imageSetRef: {} } })),
    bad(
      'claimedTimestamp not a date-time',
      cd({ clusterPoolRef: { namespace: 'p', poolName: 'q', claimedTimestamp: 'yesterday' } }),
    ),
    bad('condition without status (golden 40)', cd({}, { status: { conditions: [{ type: 'Ready' }] } })),
    bad('installedTimestamp not a date-time', cd({}, { status: { installedTimestamp: 'now' } })),
  ],
  ClusterPool: [
    v(
      'aws pool',
      hive('ClusterPool', {
        platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'c' } } },
        baseDomain: 'example.com',
        imageSetRef: { name: 'img' },
        size: 3,
        runningCount: 1,
        maxSize: 5,
        maxConcurrent: 2,
        hibernateAfter: '30m',
        claimLifetime: { default: '8h', maximum: '24h' },
        hibernationConfig: { resumeTimeout: '20m' },
        labels: { a: 'b' },
        annotations: { c: 'd' },
        skipMachinePools: true,
        installAttemptsLimit: 2,
        pullSecretRef: { name: 'ps' },
        installConfigSecretTemplateRef: {},
        inventory: [{ name: 'cdc1' }, { name: 'cdc2', kind: '' }],
        customizationRef: { name: 'x' },
      }),
    ),
    v(
      'pool status',
      hive(
        'ClusterPool',
        { platform: { gcp: { region: 'r' } }, baseDomain: 'b', imageSetRef: { name: 'i' }, size: 0 },
        { status: { size: 1, ready: 0, standby: 1, conditions: [{ type: 'CapacityAvailable', status: 'True' }] } },
      ),
    ),
    bad(
      'negative size',
      hive('ClusterPool', {
        platform: { aws: { region: 'r' } },
        baseDomain: 'b',
        imageSetRef: { name: 'i' },
        size: -1,
      }),
    ),
    bad(
      'no size, runningCount as a string',
      hive('ClusterPool', {
        platform: { aws: { region: 'r' } },
        baseDomain: 'b',
        imageSetRef: { name: 'i' },
        runningCount: 'one',
      }),
    ),
    bad(
      'claim lifetime in days',
      hive('ClusterPool', {
        platform: { aws: { region: 'r' } },
        baseDomain: 'b',
        imageSetRef: { name: 'i' },
        size: 1,
        claimLifetime: { default: '2d' },
      }),
    ),
    bad(
      'inventory kind',
      hive('ClusterPool', {
        platform: { aws: { region: 'r' } },
        baseDomain: 'b',
        imageSetRef: { name: 'i' },
        size: 1,
        inventory: [{ name: 'x', kind: 'ConfigMap' }],
      }),
    ),
    bad(
      'imageSetRef without name',
      hive('ClusterPool', { platform: { aws: { region: 'r' } }, baseDomain: 'b', imageSetRef: {}, size: 1 }),
    ),
    bad('no spec at all', hive('ClusterPool')),
    bad(
      'status without ready',
      hive(
        'ClusterPool',
        { platform: { aws: { region: 'r' } }, baseDomain: 'b', imageSetRef: { name: 'i' }, size: 1 },
        { status: { size: 1 } },
      ),
    ),
  ],
  ClusterClaim: [
    v(
      'claim with subjects and lifetime',
      hive(
        'ClusterClaim',
        {
          clusterPoolName: 'p',
          lifetime: '8h',
          subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
        },
        {
          status: { lifetime: '8h0m0s', conditions: [{ type: 'Pending', status: 'False', reason: 'ClusterClaimed' }] },
        },
      ),
    ),
    bad('lifetime with spaces', hive('ClusterClaim', { clusterPoolName: 'p', lifetime: '2 hours' })),
    bad('missing pool name', hive('ClusterClaim', { namespace: 'x' })),
    bad('subject without name', hive('ClusterClaim', { clusterPoolName: 'p', subjects: [{ kind: 'User' }] })),
    bad('no spec', hive('ClusterClaim')),
  ],
  ClusterRelocate: [
    v(
      'relocate',
      hive(
        'ClusterRelocate',
        {
          kubeconfigSecretRef: { namespace: 'ns', name: 'dest' },
          clusterDeploymentSelector: {
            matchLabels: { move: 'yes' },
            matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }],
          },
        },
        { status: {} },
      ),
    ),
    bad('no selector', hive('ClusterRelocate', { kubeconfigSecretRef: { namespace: 'ns', name: 'dest' } })),
    bad(
      'secret ref without namespace',
      hive('ClusterRelocate', { kubeconfigSecretRef: { name: 'dest' }, clusterDeploymentSelector: {} }),
    ),
    bad(
      'expression without operator',
      hive('ClusterRelocate', {
        kubeconfigSecretRef: { namespace: 'n', name: 'd' },
        clusterDeploymentSelector: { matchExpressions: [{ key: 'k' }] },
      }),
    ),
  ],
  ClusterImageSet: [
    v('image set', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterImageSet',
      metadata: meta('img4.13'),
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64' },
    }),
    bad('no releaseImage', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterImageSet',
      metadata: meta('x'),
      spec: {},
    }),
    bad('releaseImage as a number', {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterImageSet',
      metadata: meta('x'),
      spec: { releaseImage: 4.13 },
    }),
  ],
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

describe('our Hive CRDs against the upstream CRDs', needs(upstreamCrdsMissing), () => {
  const upstream = loadUpstream();
  const ours = new Map(hiveCrds().map((crd: any) => [crd.spec.names.kind, crd]));

  it('serve every kind with upstream group, version, names, scope, subresources and printer columns', () => {
    expect([...ours.keys()].sort()).toEqual(Object.keys(samples).sort());
    for (const [kind, crd] of ours as Map<string, any>) {
      const up = upstream.get(kind);
      expect(up, kind).toBeDefined();
      expect({ group: crd.spec.group, names: crd.spec.names, scope: crd.spec.scope }).toEqual({
        group: up.spec.group,
        names: up.spec.names,
        scope: up.spec.scope,
      });
      const [ov, uv] = [crd.spec.versions[0], up.spec.versions[0]];
      expect({
        name: ov.name,
        served: ov.served,
        storage: ov.storage,
        sub: ov.subresources,
        cols: ov.additionalPrinterColumns,
      }).toEqual({
        name: uv.name,
        served: uv.served,
        storage: uv.storage,
        sub: uv.subresources,
        cols: uv.additionalPrinterColumns,
      });
    }
  });

  for (const [kind, list] of Object.entries(samples)) {
    describe(kind, () => {
      it.each(list.map((s) => [s.name, s] as const))('%s', (_name, sample) => {
        const up = schemaOf(upstream.get(kind)).validate(sample.obj, { fieldValidation: 'Warn' });
        const mine = schemaOf(ours.get(kind)).validate(sample.obj, { fieldValidation: 'Warn' });
        // The corpus says what upstream does; if upstream disagrees, the sample is wrong, not our CRD.
        expect(up.causes.length === 0, `upstream verdict on "${sample.name}"`).toBe(sample.valid);
        expect(sorted(mine.causes)).toEqual(sorted(up.causes));
        if (sample.valid) {
          expect(mine.value).toEqual(up.value);
          expect(mine.unknownFields).toEqual(up.unknownFields);
        }
      });
    });
  }
});

// The same corpus sent to a real API server and to the double with our CRDs, as dry-run creates: the real server's
// validator (with whichever Hive CRDs it serves) and the double must give the same verdict, the same Status and
// the same defaulted and pruned object, warnings included.
if (process.env.KUBE_CONTRACT_KUBECONFIG) {
  describe('the corpus on the real server and on the double with our CRDs', () => {
    let real: Target;
    let double: Target;
    const crdOf = new Map(hiveCrds().map((crd: any) => [crd.spec.names.kind, crd]));
    beforeAll(async () => {
      [real, double] = await Promise.all([startTarget('real'), startTarget('double/project')]);
    });
    afterAll(async () => {
      await Promise.all([real?.close(), double?.close()]);
    });

    async function dryRunCreate(t: Target, sample: Sample) {
      const crd = crdOf.get(sample.obj.kind)!;
      const obj = structuredClone(sample.obj);
      let path = `/apis/${obj.apiVersion}`;
      if (crd.spec.scope === 'Namespaced') {
        obj.metadata.namespace = t.namespace;
        path += `/namespaces/${t.namespace}`;
      } else {
        obj.metadata.name = `${obj.metadata.name}-${real.namespace}`; // cluster-scoped: a name of this run only
      }
      const res = await kubeHttp(t.kc).call({
        method: 'POST',
        path: `${path}/${crd.spec.names.plural}?dryRun=All`,
        body: JSON.stringify(obj),
        contentType: 'application/json',
      });
      const body = JSON.parse(res.text);
      if (body.metadata?.namespace) body.metadata.namespace = '<ns>';
      return {
        status: res.status,
        warning: res.headers.warning,
        body: res.status === 201 ? { spec: body.spec, status: body.status } : body,
      };
    }

    for (const [kind, list] of Object.entries(samples)) {
      it.each(list.map((s) => [s.name, s] as const))(`${kind}: %s`, async (_name, sample) => {
        const [onReal, onDouble] = [await dryRunCreate(real, sample), await dryRunCreate(double, sample)];
        // The order of causes is not stable upstream (README of the recordings): compare them sorted, and the
        // message up to its bracketed list of them.
        for (const x of [onReal, onDouble]) {
          if (!x.body.details?.causes) continue;
          x.body.details.causes = sorted(x.body.details.causes);
          x.body.message = String(x.body.message).replace(/\[.*\]$/, '[...]');
        }
        expect(onDouble).toEqual(onReal);
      });
    }
  });
}
