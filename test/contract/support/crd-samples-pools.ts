// Upstream-CRD corpus (crd-sample.ts): ClusterPool, ClusterClaim, ClusterRelocate and ClusterImageSet.
import { meta, hive, v, bad, type Sample } from './crd-sample.js';

export const poolSamples: Record<string, Sample[]> = {
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
};
