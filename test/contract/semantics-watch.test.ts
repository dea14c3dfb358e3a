// Watch semantics through client-node: resume from a resourceVersion, bookmarks, and an informer that recovers
// from 410 Gone by relisting.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Watch, makeInformer, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, eventually, mergePatch } from './support/k8s.js';

describeTargets('watch semantics on %s', (targetName) => {
  let t: Target;
  let api: ReturnType<typeof customObjects>;
  let g: typeof HIVE & { namespace: string };
  let path: string;
  beforeAll(async () => {
    t = await startTarget(targetName);
    api = customObjects(t.kc);
    g = { ...HIVE, namespace: t.namespace };
    path = `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('resumes from a resourceVersion and sees every later change in order', async () => {
    const first: any = await api.createNamespacedCustomObject({ ...g, body: cd('w1', t.namespace) });
    await api.patchNamespacedCustomObject(
      { ...g, name: 'w1', body: { spec: { powerState: 'Hibernating' } } },
      mergePatch,
    );
    await api.createNamespacedCustomObject({ ...g, body: cd('w2', t.namespace) });
    await api.deleteNamespacedCustomObject({ ...g, name: 'w1' });
    const events: string[] = [];
    const ctrl = await new Watch(t.kc).watch(
      path,
      { resourceVersion: first.metadata.resourceVersion },
      (type, obj) => events.push(`${type} ${obj.metadata?.name}`),
      () => undefined,
    );
    await eventually(async () => events.length >= 3);
    ctrl.abort();
    expect(events).toEqual(['MODIFIED w1', 'ADDED w2', 'DELETED w1']);
  });

  it('starts from the current state when no resourceVersion is given, then follows live changes', async () => {
    const events: string[] = [];
    const ctrl = await new Watch(t.kc).watch(
      path,
      { allowWatchBookmarks: true },
      (type, obj) => {
        if (type !== 'BOOKMARK') events.push(`${type} ${obj.metadata?.name}`);
      },
      () => undefined,
    );
    await eventually(async () => events.includes('ADDED w2'));
    await api.patchNamespacedCustomObject({ ...g, name: 'w2', body: { metadata: { labels: { a: 'b' } } } }, mergePatch);
    await eventually(async () => events.includes('MODIFIED w2'));
    ctrl.abort();
  });

  it('filters watch events by label selector, turning a label change into ADDED/DELETED', async () => {
    const events: string[] = [];
    const objects: any[] = [];
    const ctrl = await new Watch(t.kc).watch(
      path,
      { labelSelector: 'team=x' },
      (type, obj) => {
        events.push(`${type} ${obj.metadata?.name}`);
        objects.push(obj);
      },
      () => undefined,
    );
    await api.patchNamespacedCustomObject(
      { ...g, name: 'w2', body: { metadata: { labels: { team: 'x' } } } },
      mergePatch,
    );
    const left: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'w2', body: { metadata: { labels: { team: null } } } },
      mergePatch,
    );
    await eventually(async () => events.length >= 2);
    ctrl.abort();
    expect(events).toEqual(['ADDED w2', 'DELETED w2']);
    // The watch cache's DELETED for an object that stopped matching carries the content the watcher last
    // matched, stamped with the resourceVersion of the change (so a resumed watch does not replay it).
    expect(objects[1].metadata.labels).toMatchObject({ team: 'x' });
    expect(objects[1].metadata.resourceVersion).toBe(left.metadata.resourceVersion);
  });

  it('a field-selected watch sees an object created outside the selection arrive as ADDED, and no-op writes send nothing', async () => {
    const events: string[] = [];
    const ctrl = await new Watch(t.kc).watch(
      path,
      { fieldSelector: 'metadata.name=w4' },
      (type, obj) => events.push(`${type} ${obj.metadata?.name} ${obj.metadata?.labels?.step ?? ''}`),
      () => undefined,
    );
    const created: any = await api.createNamespacedCustomObject({
      ...g,
      body: cd('w4', t.namespace, { labels: { step: '1' } }),
    });
    // A merge patch that changes nothing is not written: no event, no new resourceVersion.
    const same: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'w4', body: { metadata: { labels: { step: '1' } } } },
      mergePatch,
    );
    await api.patchNamespacedCustomObject(
      { ...g, name: 'w4', body: { metadata: { labels: { step: '2' } } } },
      mergePatch,
    );
    await eventually(async () => events.length >= 2);
    ctrl.abort();
    expect(events).toEqual(['ADDED w4 1', 'MODIFIED w4 2']);
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    await api.deleteNamespacedCustomObject({ ...g, name: 'w4' });
  });

  it('a watch from a version not reached yet only sees changes after it', async () => {
    const base: any = await api.createNamespacedCustomObject({ ...g, body: cd('f1', t.namespace) });
    const ahead = Number(base.metadata.resourceVersion) + 2;
    const seen: Array<{ type: string; rv: number; label?: string }> = [];
    const ctrl = await new Watch(t.kc).watch(
      path,
      { resourceVersion: String(ahead) },
      (type, obj) => seen.push({ type, rv: Number(obj.metadata?.resourceVersion), label: obj.metadata?.labels?.n }),
      () => undefined,
    );
    for (const n of ['1', '2', '3', '4']) {
      await api.patchNamespacedCustomObject({ ...g, name: 'f1', body: { metadata: { labels: { n } } } }, mergePatch);
    }
    await eventually(async () => seen.some((e) => e.label === '4'));
    ctrl.abort();
    const changes = seen.filter((e) => e.type !== 'ERROR');
    expect(changes.every((e) => e.rv > ahead)).toBe(true);
    expect(changes.map((e) => e.label)).not.toContain('1');
    await api.deleteNamespacedCustomObject({ ...g, name: 'f1' });
  });

  it('an informer converges after missing events, relisting on 410 Gone where history is gone', async () => {
    let lists = 0;
    const listFn = () => {
      lists += 1;
      return api.listNamespacedCustomObject({ ...g }) as Promise<KubernetesListObject<KubernetesObject>>;
    };
    const inf = makeInformer<KubernetesObject>(t.kc, path, listFn);
    const errors: unknown[] = [];
    inf.on('error', (err) => errors.push(err));
    await inf.start();
    await eventually(async () => inf.list(t.namespace).some((o) => o.metadata?.name === 'w2'));
    await inf.stop();
    // While it is stopped: one object goes, another comes, and (on the double) the API server restarts, so its watch
    // cache no longer reaches back to the informer's version.
    await api.deleteNamespacedCustomObject({ ...g, name: 'w2' });
    await api.createNamespacedCustomObject({ ...g, body: cd('w3', t.namespace) });
    t.double?.restartWatchCache();
    const names = () =>
      inf
        .list(t.namespace)
        .map((o) => o.metadata?.name)
        .sort();
    await inf.start();
    await eventually(async () => JSON.stringify(names()) === JSON.stringify(['w3']));
    await inf.stop();
    expect(names()).toEqual(['w3']);
    if (t.double) expect(lists).toBe(2); // the resumed watch got ERROR 410 and the informer relisted
  });
});
