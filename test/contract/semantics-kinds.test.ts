// CRUD semantics beyond one custom kind's lifecycle, through @kubernetes/client-node, against the double and, when
// KUBE_CONTRACT_KUBECONFIG is set, a real API server: the /scale subresource, core kinds, Lease renewals, missing
// namespaces and the manager a User-Agent names.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, failure, mergePatch } from './support/k8s.js';
import { kubeHttp } from './support/kube-http.js';

describeTargets('CRUD semantics on %s', (targetName) => {
  let t: Target;
  let api: ReturnType<typeof customObjects>;
  let g: typeof HIVE & { namespace: string };
  beforeAll(async () => {
    t = await startTarget(targetName);
    api = customObjects(t.kc);
    g = { ...HIVE, namespace: t.namespace };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads and scales a ClusterPool through its /scale subresource', async () => {
    const pools = { ...g, plural: 'clusterpools' };
    await api.createNamespacedCustomObject({
      ...pools,
      body: {
        apiVersion: 'hive.openshift.io/v1',
        kind: 'ClusterPool',
        metadata: { name: 'pool' },
        spec: {
          baseDomain: 'example.com',
          imageSetRef: { name: 'img' },
          platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
          size: 2,
        },
      },
    });
    const scale: any = await api.getNamespacedCustomObjectScale({ ...pools, name: 'pool' });
    expect([scale.kind, scale.spec.replicas]).toEqual(['Scale', 2]);
    await api.patchNamespacedCustomObjectScale({ ...pools, name: 'pool', body: { spec: { replicas: 5 } } }, mergePatch);
    const pool: any = await api.getNamespacedCustomObject({ ...pools, name: 'pool' });
    expect([pool.spec.size, pool.metadata.generation]).toEqual([5, 2]);
  });

  it('refuses negative replicas on a kind with a scale subresource, naming the scale path', async () => {
    const machinePools = { ...g, plural: 'machinepools' };
    const refused = await failure(
      api.createNamespacedCustomObject({
        ...machinePools,
        body: {
          apiVersion: 'hive.openshift.io/v1',
          kind: 'MachinePool',
          metadata: { name: 'c1-worker' },
          spec: { clusterDeploymentRef: { name: 'c1' }, name: 'worker', platform: {}, replicas: -1 },
        },
      }),
    );
    expect(refused.code).toBe(422);
    expect(refused.status.details.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: -1: should be a non-negative integer',
      field: '.spec.replicas',
    });
  });

  it('serves core kinds: Secrets with stringData, ConfigMaps', async () => {
    const core = t.kc.makeApiClient(CoreV1Api);
    const secret = await core.createNamespacedSecret({
      namespace: t.namespace,
      body: { metadata: { name: 's1' }, stringData: { password: 'hunter2' } },
    });
    expect(secret.data?.password).toBe(Buffer.from('hunter2').toString('base64'));
    expect(secret.type).toBe('Opaque');
    await core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'c1' }, data: { a: '1' } },
    });
    const list = await core.listNamespacedConfigMap({ namespace: t.namespace });
    expect(list.items.map((c) => c.metadata?.name)).toContain('c1');
  });

  it('guards Lease renewals with resourceVersion, as leader election relies on', async () => {
    const leases = t.kc.makeApiClient(CoordinationV1Api);
    const lease = await leases.createNamespacedLease({
      namespace: t.namespace,
      body: { metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    const renewed = await leases.replaceNamespacedLease({
      namespace: t.namespace,
      name: 'leader',
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'a', leaseTransitions: 1 } },
    });
    expect(renewed.spec?.leaseTransitions).toBe(1);
    const stale = await failure(
      leases.replaceNamespacedLease({
        namespace: t.namespace,
        name: 'leader',
        body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } },
      }),
    );
    expect([stale.code, stale.status.reason]).toEqual([409, 'Conflict']);
  });

  it('rejects creates in a missing namespace', async () => {
    const err = await failure(
      api.createNamespacedCustomObject({ ...g, namespace: 'no-such-ns-here', body: cd('x', 'no-such-ns-here') }),
    );
    expect([err.code, err.status.message]).toEqual([404, 'namespaces "no-such-ns-here" not found']);
  });

  it('records the User-Agent prefix as the manager, and no manager at all for a request without one', async () => {
    const http = kubeHttp(t.kc);
    const create = async (name: string, userAgent: string) =>
      JSON.parse(
        (
          await http.call({
            method: 'POST',
            path: `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`,
            contentType: 'application/json',
            body: JSON.stringify(cd(name, t.namespace)),
            userAgent,
          })
        ).text,
      );
    const named = await create('ua-1', 'beekeeper-sim/0.1 (linux)');
    expect(named.metadata.managedFields[0].manager).toBe('beekeeper-sim');
    const anonymous = await create('ua-2', '');
    expect(anonymous.metadata.managedFields).toHaveLength(1);
    expect(anonymous.metadata.managedFields[0]).not.toHaveProperty('manager');
    expect(anonymous.metadata.managedFields[0].operation).toBe('Update');
  });
});
