// LIST consistency options through @kubernetes/client-node: resourceVersion 0 (served from the watch cache, which
// ignores limit), NotOlderThan / Exact, their validation, and the list's resourceVersion.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, failure, mergePatch } from './support/k8s.js';

describeTargets('LIST consistency on %s', (targetName) => {
  let t: Target;
  let api: ReturnType<typeof customObjects>;
  let g: typeof HIVE & { namespace: string };
  let firstRv = '';
  beforeAll(async () => {
    t = await startTarget(targetName);
    api = customObjects(t.kc);
    g = { ...HIVE, namespace: t.namespace };
    for (const name of ['l1', 'l2', 'l3']) {
      const created: any = await api.createNamespacedCustomObject({ ...g, body: cd(name, t.namespace) });
      firstRv ||= created.metadata.resourceVersion;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores limit for resourceVersion=0: one page with every item and no continue token', async () => {
    const list: any = await api.listNamespacedCustomObject({ ...g, resourceVersion: '0', limit: 1 });
    expect(list.items.map((i: any) => i.metadata.name).sort()).toEqual(['l1', 'l2', 'l3']);
    expect(list.metadata.continue ?? '').toBe('');
    const paged: any = await api.listNamespacedCustomObject({ ...g, limit: 1 });
    expect(paged.items).toHaveLength(1);
    expect(paged.metadata.continue).toBeTruthy();
  });

  it('pages on from a continue token even with resourceVersion=0, and refuses another resourceVersion with it', async () => {
    const first: any = await api.listNamespacedCustomObject({ ...g, limit: 1 });
    const next: any = await api.listNamespacedCustomObject({
      ...g,
      limit: 1,
      resourceVersion: '0',
      _continue: first.metadata.continue,
    });
    expect(next.items.map((i: any) => i.metadata.name)).toEqual(['l2']);
    const refused = await failure(
      api.listNamespacedCustomObject({ ...g, limit: 1, resourceVersion: firstRv, _continue: first.metadata.continue }),
    );
    expect(refused.code).toBe(400);
    expect(refused.status.message).toBe('specifying resource version is not allowed when using continue');
  });

  it('answers NotOlderThan with the current state and Exact with the state at that version', async () => {
    await api.patchNamespacedCustomObject(
      { ...g, name: 'l1', body: { metadata: { labels: { later: 'yes' } } } },
      mergePatch,
    );
    const latest: any = await api.listNamespacedCustomObject({
      ...g,
      resourceVersion: firstRv,
      resourceVersionMatch: 'NotOlderThan',
    });
    expect(latest.items.find((i: any) => i.metadata.name === 'l1').metadata.labels).toEqual({ later: 'yes' });
    const exact: any = await api.listNamespacedCustomObject({
      ...g,
      resourceVersion: firstRv,
      resourceVersionMatch: 'Exact',
    });
    expect(exact.items.map((i: any) => i.metadata.name)).toEqual(['l1']);
    expect(exact.items[0].metadata.labels).toBeUndefined();
    expect(exact.metadata.resourceVersion).toBe(firstRv);
  });

  it('refuses resourceVersionMatch without a resourceVersion, and Exact with 0, as invalid ListOptions', async () => {
    const missing = await failure(api.listNamespacedCustomObject({ ...g, resourceVersionMatch: 'NotOlderThan' }));
    expect(missing.code).toBe(422);
    expect(missing.status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    expect(missing.status.details).toMatchObject({ group: 'meta.k8s.io', kind: 'ListOptions' });
    const zero = await failure(
      api.listNamespacedCustomObject({ ...g, resourceVersion: '0', resourceVersionMatch: 'Exact' }),
    );
    expect(zero.code).toBe(422);
    expect(zero.status.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'resourceVersionMatch',
        message: 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      },
    ]);
  });

  it('refuses resourceVersionMatch on a watch', async () => {
    const refused = await failure(
      api.listNamespacedCustomObject({
        ...g,
        watch: true,
        resourceVersion: firstRv,
        resourceVersionMatch: 'NotOlderThan',
      }),
    );
    expect(refused.code).toBe(422);
    expect(refused.status.details.causes[0].message).toBe('Forbidden: resourceVersionMatch is forbidden for watch');
  });

  it('reports the latest resourceVersion in list metadata, whatever kind was written last', async () => {
    const cm: any = await t.kc
      .makeApiClient(CoreV1Api)
      .createNamespacedConfigMap({ namespace: t.namespace, body: { metadata: { name: 'after' } } });
    const list: any = await api.listNamespacedCustomObject({ ...g });
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(cm.metadata.resourceVersion));
  });
});
