// Writes that change nothing are not written (etcd3 store GuaranteedUpdate skips identical bytes): same
// resourceVersion, same managedFields (timestamps included), no watch event. And /status writes of a custom
// resource change status only (customresource statusStrategy.PrepareForUpdate copies the old object first).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreV1Api, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, eventually, mergePatch } from './support/k8s.js';

const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

describeTargets('no-op writes on %s', (targetName) => {
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

  it('keeps resourceVersion and managedFields and sends no event for PUT, patches and apply that change nothing', async () => {
    const created: any = await api.createNamespacedCustomObject({
      ...g,
      body: cd('n1', t.namespace, { labels: { a: '1' } }),
    });
    const events: string[] = [];
    const ctrl = await new Watch(t.kc).watch(
      `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`,
      { resourceVersion: created.metadata.resourceVersion },
      (type, obj) => events.push(`${type} ${obj.metadata?.labels?.a}`),
      () => undefined,
    );
    // Different managers writing the values that are already there take no ownership and change nothing.
    const put: any = await api.replaceNamespacedCustomObject({ ...g, name: 'n1', body: created });
    const merge: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'n1', fieldManager: 'other', body: { metadata: { labels: { a: '1' } } } },
      mergePatch,
    );
    const json: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'n1', body: [{ op: 'replace', path: '/spec/baseDomain', value: 'example.com' }] },
      jsonPatch,
    );
    for (const got of [put, merge, json]) {
      expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      expect(got.metadata.managedFields).toEqual(created.metadata.managedFields);
      expect(got.metadata.generation).toBe(1);
    }
    // Applying the same configuration twice: the second apply is a no-op.
    const body = {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      metadata: { name: 'n1', labels: { b: '2' } },
    };
    const first: any = await api.patchNamespacedCustomObject({ ...g, name: 'n1', fieldManager: 'tool', body }, apply);
    const second: any = await api.patchNamespacedCustomObject({ ...g, name: 'n1', fieldManager: 'tool', body }, apply);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second.metadata.managedFields).toEqual(first.metadata.managedFields);
    await api.patchNamespacedCustomObject({ ...g, name: 'n1', body: { metadata: { labels: { a: '2' } } } }, mergePatch);
    await eventually(async () => events.includes('MODIFIED 2'));
    ctrl.abort();
    expect(events).toEqual(['MODIFIED 1', 'MODIFIED 2']); // the first apply, then the real change
  });

  it('ignores metadata sent to /status of a custom resource', async () => {
    const created: any = await api.createNamespacedCustomObject({
      ...g,
      body: cd('n2', t.namespace, { labels: { a: '1' } }),
    });
    const got: any = await api.patchNamespacedCustomObjectStatus(
      {
        ...g,
        name: 'n2',
        body: {
          metadata: { labels: { a: 'changed', b: 'new' }, annotations: { x: 'y' }, finalizers: ['example.com/f'] },
          status: { powerState: 'Running' },
        },
      },
      mergePatch,
    );
    expect(got.status.powerState).toBe('Running');
    expect(got.metadata.labels).toEqual({ a: '1' });
    expect(got.metadata.annotations).toBeUndefined();
    expect(got.metadata.finalizers).toBeUndefined();
    expect(got.metadata.generation).toBe(created.metadata.generation);
  });

  it('writes metadata sent to a Namespace /status (its status strategy restores only spec)', async () => {
    const core = t.kc.makeApiClient(CoreV1Api);
    const got: any = await core.patchNamespaceStatus(
      {
        name: t.namespace,
        body: {
          metadata: { labels: { via: 'status' } },
          spec: { finalizers: [] },
          status: { phase: 'Active' },
        },
      },
      mergePatch,
    );
    expect(got.metadata.labels).toMatchObject({ via: 'status' });
    expect(got.spec.finalizers).toEqual(['kubernetes']);
  });
});
