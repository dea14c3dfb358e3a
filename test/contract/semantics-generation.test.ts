// metadata.generation: custom resources and CRDs start at 1 and count spec changes (and the start of a graceful
// deletion, rest.BeforeDelete); core kinds whose strategies do not track it (Secret, ConfigMap, Namespace) have none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiextensionsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, mergePatch } from './support/k8s.js';

describeTargets('metadata.generation on %s', (targetName) => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget(targetName);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is absent on Secrets, ConfigMaps and Namespaces, even through updates and a deferred delete', async () => {
    const core = t.kc.makeApiClient(CoreV1Api);
    const secret: any = await core.createNamespacedSecret({
      namespace: t.namespace,
      body: { metadata: { name: 's' }, stringData: { a: 'b' } },
    });
    const cm: any = await core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'c', finalizers: ['example.com/hold'] }, data: { a: 'b' } },
    });
    const ns: any = await core.readNamespace({ name: t.namespace });
    expect([secret.metadata.generation, cm.metadata.generation, ns.metadata.generation]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const changed: any = await core.patchNamespacedConfigMap(
      { namespace: t.namespace, name: 'c', body: { data: { a: 'c' } } },
      mergePatch,
    );
    expect(changed.metadata.generation).toBeUndefined();
    await core.deleteNamespacedConfigMap({ namespace: t.namespace, name: 'c' });
    const deleting: any = await core.readNamespacedConfigMap({ namespace: t.namespace, name: 'c' });
    expect(deleting.metadata.deletionTimestamp).toBeTruthy();
    expect(deleting.metadata.generation).toBeUndefined();
    await core.patchNamespacedConfigMap(
      { namespace: t.namespace, name: 'c', body: { metadata: { finalizers: null } } },
      mergePatch,
    );
  });

  it('starts at 1 on custom resources and CRDs and counts spec changes only', async () => {
    const api = customObjects(t.kc);
    const g = { ...HIVE, namespace: t.namespace };
    expect((await api.createNamespacedCustomObject({ ...g, body: cd('gen', t.namespace) })).metadata.generation).toBe(
      1,
    );
    const labelled: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'gen', body: { metadata: { labels: { x: 'y' } } } },
      mergePatch,
    );
    expect(labelled.metadata.generation).toBe(1);
    const spec: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'gen', body: { spec: { powerState: 'Hibernating' } } },
      mergePatch,
    );
    expect(spec.metadata.generation).toBe(2);
    const crd = await t.kc
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: 'clusterdeployments.hive.openshift.io' });
    expect(crd.metadata?.generation).toBeGreaterThanOrEqual(1);
  });
});
