import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/sim/apiserver/schema/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';

const byKind = () => new Map(hiveCrds().map((crd: any) => [crd.spec.names.kind, crd]));

describe('hiveCrds()', () => {
  it('serves the Hive kinds with the plural, short name and scope of REFERENCE §1', () => {
    const table = [...byKind().values()].map((crd: any) => [
      crd.spec.names.kind,
      `${crd.spec.group}/${crd.spec.versions[0].name}`,
      crd.spec.names.plural,
      crd.spec.names.shortNames?.[0] ?? '-',
      crd.spec.scope,
    ]);
    expect(table).toEqual([
      ['ClusterDeployment', 'hive.openshift.io/v1', 'clusterdeployments', 'cd', 'Namespaced'],
      ['ClusterPool', 'hive.openshift.io/v1', 'clusterpools', 'cp', 'Namespaced'],
      ['ClusterClaim', 'hive.openshift.io/v1', 'clusterclaims', '-', 'Namespaced'],
      ['ClusterRelocate', 'hive.openshift.io/v1', 'clusterrelocates', '-', 'Namespaced'],
      ['ClusterImageSet', 'hive.openshift.io/v1', 'clusterimagesets', 'imgset', 'Cluster'],
      ['ClusterDeprovision', 'hive.openshift.io/v1', 'clusterdeprovisions', 'cdr', 'Namespaced'],
      ['ClusterProvision', 'hive.openshift.io/v1', 'clusterprovisions', '-', 'Namespaced'],
      ['MachinePool', 'hive.openshift.io/v1', 'machinepools', '-', 'Namespaced'],
      ['DNSZone', 'hive.openshift.io/v1', 'dnszones', '-', 'Namespaced'],
      ['SyncSet', 'hive.openshift.io/v1', 'syncsets', 'ss', 'Namespaced'],
      ['SelectorSyncSet', 'hive.openshift.io/v1', 'selectorsyncsets', 'sss', 'Cluster'],
      [
        'ClusterDeploymentCustomization',
        'hive.openshift.io/v1',
        'clusterdeploymentcustomizations',
        'cdc',
        'Namespaced',
      ],
      ['HiveConfig', 'hive.openshift.io/v1', 'hiveconfigs', '-', 'Cluster'],
      ['ClusterSync', 'hiveinternal.openshift.io/v1alpha1', 'clustersyncs', 'csync', 'Namespaced'],
    ]);
  });

  it('gives every kind a status subresource, and pools and machine pools a scale subresource', () => {
    for (const [kind, crd] of byKind() as Map<string, any>) {
      const sub = crd.spec.versions[0].subresources;
      expect(sub.status, kind).toEqual({});
      expect(crd.metadata.name).toBe(`${crd.spec.names.plural}.${crd.spec.group}`);
    }
    expect(byKind().get('ClusterPool').spec.versions[0].subresources.scale).toEqual({
      specReplicasPath: '.spec.size',
      statusReplicasPath: '.status.size',
    });
    expect(byKind().get('MachinePool').spec.versions[0].subresources.scale).toEqual({
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
    });
  });

  it('returns fresh objects on every call', () => {
    const first: any = hiveCrds()[0];
    first.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.powerState.enum.push('Resuming');
    const second: any = hiveCrds()[0];
    expect(second.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.powerState.enum).toEqual([
      '',
      'Running',
      'Hibernating',
    ]);
  });

  it('compiles every schema, and each accepts a minimal object of its kind', () => {
    const minimal: Record<string, unknown> = {
      ClusterDeployment: { baseDomain: 'b', clusterName: 'c', platform: { none: {} } },
      ClusterPool: { baseDomain: 'b', imageSetRef: { name: 'i' }, platform: { aws: { region: 'r' } }, size: 0 },
      ClusterClaim: { clusterPoolName: 'p' },
      ClusterRelocate: { clusterDeploymentSelector: {}, kubeconfigSecretRef: { name: 'k', namespace: 'n' } },
      ClusterImageSet: { releaseImage: 'quay.io/x:1' },
      ClusterDeprovision: { infraID: 'i' },
      ClusterProvision: { attempt: 0, clusterDeploymentRef: { name: 'c' }, podSpec: {}, stage: 'initializing' },
      MachinePool: { clusterDeploymentRef: { name: 'c' }, name: 'worker', platform: {} },
      DNSZone: { zone: 'z.example.com' },
      SyncSet: { clusterDeploymentRefs: [] },
      SelectorSyncSet: {},
      ClusterDeploymentCustomization: {},
      HiveConfig: {},
      ClusterSync: {},
    };
    for (const [kind, crd] of byKind() as Map<string, any>) {
      const schema = compileSchema(crd.spec.versions[0].schema.openAPIV3Schema);
      const obj = {
        apiVersion: `${crd.spec.group}/${crd.spec.versions[0].name}`,
        kind,
        metadata: { name: 'x' },
        spec: minimal[kind],
      };
      expect(schema.validate(obj, { fieldValidation: 'Strict' }), kind).toMatchObject({
        causes: [],
        unknownFields: [],
      });
    }
  });

  it('defaults a pool inventory entry to kind ClusterDeploymentCustomization', () => {
    const crd: any = byKind().get('ClusterPool');
    const { value } = compileSchema(crd.spec.versions[0].schema.openAPIV3Schema).validate(
      {
        spec: {
          baseDomain: 'b',
          imageSetRef: { name: 'i' },
          platform: { aws: { region: 'r' } },
          size: 1,
          inventory: [{ name: 'cdc1' }],
        },
      },
      { fieldValidation: 'Warn' },
    );
    expect(value.spec.inventory).toEqual([{ name: 'cdc1', kind: 'ClusterDeploymentCustomization' }]);
  });
});
