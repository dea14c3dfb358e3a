// Deletion semantics through client-node: finalizers, propagation policies and the garbage collector, namespace
// termination cascading to its contents.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, eventually, failure, isNotFound, mergePatch } from './support/k8s.js';

describeTargets('lifecycle semantics on %s', (targetName) => {
  let t: Target;
  let api: ReturnType<typeof customObjects>;
  let core: CoreV1Api;
  let g: typeof HIVE & { namespace: string };
  beforeAll(async () => {
    t = await startTarget(targetName);
    api = customObjects(t.kc);
    core = t.kc.makeApiClient(CoreV1Api);
    g = { ...HIVE, namespace: t.namespace };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a finalizer defers deletion until it is removed, and no new finalizer may join meanwhile', async () => {
    await api.createNamespacedCustomObject({
      ...g,
      body: cd('fin', t.namespace, { finalizers: ['example.com/hold'] }),
    });
    const deleting: any = await api.deleteNamespacedCustomObject({ ...g, name: 'fin' });
    expect(deleting.metadata.deletionTimestamp).toBeTruthy();
    expect(deleting.metadata.generation).toBe(2);
    const added = await failure(
      api.patchNamespacedCustomObject(
        { ...g, name: 'fin', body: { metadata: { finalizers: ['example.com/hold', 'example.com/late'] } } },
        mergePatch,
      ),
    );
    expect([added.code, added.status.details.causes[0].reason]).toEqual([422, 'FieldValueForbidden']);
    await api.patchNamespacedCustomObject({ ...g, name: 'fin', body: { metadata: { finalizers: null } } }, mergePatch);
    expect(await isNotFound(api.getNamespacedCustomObject({ ...g, name: 'fin' }))).toBe(true);
  });

  it('a delete precondition on uid or resourceVersion must match', async () => {
    const obj: any = await api.createNamespacedCustomObject({ ...g, body: cd('pre', t.namespace) });
    const wrongUid = await failure(
      api.deleteNamespacedCustomObject({
        ...g,
        name: 'pre',
        body: { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } },
      }),
    );
    expect([wrongUid.code, wrongUid.status.reason]).toEqual([409, 'Conflict']);
    const ok: any = await api.deleteNamespacedCustomObject({
      ...g,
      name: 'pre',
      body: { preconditions: { uid: obj.metadata.uid } },
    });
    expect(ok).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it('garbage-collects dependents of a deleted owner, and orphans them when asked', async () => {
    const owner: any = await api.createNamespacedCustomObject({ ...g, body: cd('owner', t.namespace) });
    const ref = {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      name: 'owner',
      uid: owner.metadata.uid,
      blockOwnerDeletion: true,
    };
    await core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'dep', ownerReferences: [ref] } },
    });
    await api.deleteNamespacedCustomObject({ ...g, name: 'owner', propagationPolicy: 'Background' });
    await eventually(() => isNotFound(core.readNamespacedConfigMap({ namespace: t.namespace, name: 'dep' })));

    const owner2: any = await api.createNamespacedCustomObject({ ...g, body: cd('owner2', t.namespace) });
    await core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'dep2', ownerReferences: [{ ...ref, name: 'owner2', uid: owner2.metadata.uid }] } },
    });
    await api.deleteNamespacedCustomObject({ ...g, name: 'owner2', propagationPolicy: 'Orphan' });
    await eventually(() => isNotFound(api.getNamespacedCustomObject({ ...g, name: 'owner2' })));
    const orphan = await eventually(async () => {
      const cm = await core.readNamespacedConfigMap({ namespace: t.namespace, name: 'dep2' });
      return cm.metadata?.ownerReferences ? undefined : cm;
    });
    expect(orphan.metadata?.name).toBe('dep2');
  });

  it('foreground deletion keeps the owner until its dependents are gone', async () => {
    const owner: any = await api.createNamespacedCustomObject({ ...g, body: cd('fg', t.namespace) });
    const ref = {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      name: 'fg',
      uid: owner.metadata.uid,
      blockOwnerDeletion: true,
    };
    await core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'fg-dep', ownerReferences: [ref] } },
    });
    const deleting: any = await api.deleteNamespacedCustomObject({ ...g, name: 'fg', propagationPolicy: 'Foreground' });
    expect(deleting.metadata.finalizers).toContain('foregroundDeletion');
    await eventually(() => isNotFound(core.readNamespacedConfigMap({ namespace: t.namespace, name: 'fg-dep' })));
    await eventually(() => isNotFound(api.getNamespacedCustomObject({ ...g, name: 'fg' })));
  });

  it('deleting a namespace terminates it, refuses new content and removes everything in it', async () => {
    const ns = `${t.namespace}-term`;
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await api.createNamespacedCustomObject({ ...g, namespace: ns, body: cd('inside', ns) });
    await api.createNamespacedCustomObject({
      ...g,
      namespace: ns,
      body: cd('held', ns, { finalizers: ['example.com/hold'] }),
    });
    const terminating = await core.deleteNamespace({ name: ns });
    expect((terminating as any).status?.phase).toBe('Terminating');
    const refused = await failure(api.createNamespacedCustomObject({ ...g, namespace: ns, body: cd('late', ns) }));
    expect([refused.code, refused.status.details.causes[0].reason]).toEqual([403, 'NamespaceTerminating']);
    await eventually(() => isNotFound(api.getNamespacedCustomObject({ ...g, namespace: ns, name: 'inside' })));
    const conditions = await eventually(async () => (await core.readNamespace({ name: ns })).status?.conditions);
    expect(conditions.find((c) => c.type === 'NamespaceFinalizersRemaining')?.status).toBe('True');
    await api.patchNamespacedCustomObject(
      { ...g, namespace: ns, name: 'held', body: { metadata: { finalizers: null } } },
      mergePatch,
    );
    await eventually(() => isNotFound(core.readNamespace({ name: ns })), 30_000);
  });

  it('honours dryRun sent in the DeleteOptions body (kubectl delete --dry-run=server), for one object and a collection', async () => {
    await api.createNamespacedCustomObject({ ...g, body: cd('dry', t.namespace, { labels: { dry: 'yes' } }) });
    const answer: any = await api.deleteNamespacedCustomObject({ ...g, name: 'dry', body: { dryRun: ['All'] } });
    expect(answer.status).toBe('Success');
    expect((await api.getNamespacedCustomObject({ ...g, name: 'dry' })).metadata.name).toBe('dry');
    await api.deleteCollectionNamespacedCustomObject({ ...g, labelSelector: 'dry=yes', body: { dryRun: ['All'] } });
    expect((await api.getNamespacedCustomObject({ ...g, name: 'dry' })).metadata.name).toBe('dry');
    await api.deleteNamespacedCustomObject({ ...g, name: 'dry' });
    expect(await isNotFound(api.getNamespacedCustomObject({ ...g, name: 'dry' }))).toBe(true);
  });

  it('refuses DeleteOptions with an unsupported dryRun or propagationPolicy as Invalid DeleteOptions, and deletes nothing', async () => {
    await api.createNamespacedCustomObject({ ...g, body: cd('opts', t.namespace) });
    const invalid = (field: string, message: string) => ({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `DeleteOptions.meta.k8s.io "" is invalid: ${field}: ${message}`,
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message, field }],
      },
      code: 422,
    });
    const dryRun = await failure(api.deleteNamespacedCustomObject({ ...g, name: 'opts', body: { dryRun: ['Some'] } }));
    expect([dryRun.code, dryRun.status]).toEqual([
      422,
      invalid('dryRun', 'Unsupported value: []string{"Some"}: supported values: "All"'),
    ]);
    // Without a body the options come from the query.
    const fromQuery = await failure(api.deleteNamespacedCustomObject({ ...g, name: 'opts', dryRun: 'Other' }));
    expect([fromQuery.code, fromQuery.status]).toEqual([
      422,
      invalid('dryRun', 'Unsupported value: []string{"Other"}: supported values: "All"'),
    ]);
    const policy = await failure(
      api.deleteNamespacedCustomObject({ ...g, name: 'opts', body: { propagationPolicy: 'Sometimes' } }),
    );
    expect([policy.code, policy.status]).toEqual([
      422,
      invalid(
        'propagationPolicy',
        'Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
      ),
    ]);
    expect((await api.getNamespacedCustomObject({ ...g, name: 'opts' })).metadata.deletionTimestamp).toBeUndefined();
  });

  it('refuses to delete the immortal namespaces', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const refused = await failure(core.deleteNamespace({ name }));
      expect(refused.code).toBe(403);
      expect(refused.status.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
    expect((await core.readNamespace({ name: 'default' })).status?.phase).toBe('Active');
  });
});
