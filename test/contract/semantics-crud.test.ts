// CRUD semantics through @kubernetes/client-node, against the double (upstream and project CRDs) and, when
// KUBE_CONTRACT_KUBECONFIG is set, against a real API server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, failure, mergePatch } from './support/k8s.js';

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

  it('creates with server-set metadata and reads it back', async () => {
    const created: any = await api.createNamespacedCustomObject({
      ...g,
      body: cd('alpha', t.namespace, { labels: { env: 'prod' } }),
    });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.generation).toBe(1);
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.metadata.managedFields[0].operation).toBe('Update');
    const got: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    expect(got).toEqual(created);
  });

  it('answers AlreadyExists, NotFound and Conflict as Status objects', async () => {
    const dup = await failure(api.createNamespacedCustomObject({ ...g, body: cd('alpha', t.namespace) }));
    expect([dup.code, dup.status.reason]).toEqual([409, 'AlreadyExists']);
    const missing = await failure(api.getNamespacedCustomObject({ ...g, name: 'nope' }));
    expect([missing.code, missing.status.reason, missing.status.details.kind]).toEqual([
      404,
      'NotFound',
      'clusterdeployments',
    ]);
    const current: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    await api.patchNamespacedCustomObject(
      { ...g, name: 'alpha', body: { metadata: { labels: { touched: 'yes' } } } },
      mergePatch,
    );
    const stale = await failure(api.replaceNamespacedCustomObject({ ...g, name: 'alpha', body: current }));
    expect([stale.code, stale.status.reason]).toEqual([409, 'Conflict']);
  });

  it("treats a PUT's metadata.uid as a precondition: another uid is a Conflict even with the current resourceVersion", async () => {
    const current: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    const other = '00000000-0000-0000-0000-000000000001';
    const body = {
      ...current,
      metadata: { ...current.metadata, uid: other },
      spec: { ...current.spec, powerState: 'Hibernating' },
    };
    const refused = await failure(api.replaceNamespacedCustomObject({ ...g, name: 'alpha', body }));
    expect([refused.code, refused.status]).toEqual([
      409,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on clusterdeployments.hive.openshift.io "alpha": StorageError: invalid object, Code: 4, ' +
          `Key: /registry/hive.openshift.io/clusterdeployments/${t.namespace}/alpha, ResourceVersion: 0, AdditionalErrorMsg: ` +
          `Precondition failed: UID in precondition: ${other}, UID in object meta: ${current.metadata.uid}`,
        reason: 'Conflict',
        details: { name: 'alpha', group: 'hive.openshift.io', kind: 'clusterdeployments' },
        code: 409,
      },
    ]);
    const after: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    expect([after.metadata.resourceVersion, after.spec.powerState]).toEqual([
      current.metadata.resourceVersion,
      current.spec.powerState,
    ]);
  });

  it('refuses a patch of metadata.uid as an immutable field', async () => {
    const current: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    const other = '00000000-0000-0000-0000-000000000002';
    const refused = await failure(
      api.patchNamespacedCustomObject({ ...g, name: 'alpha', body: { metadata: { uid: other } } }, mergePatch),
    );
    const cause = {
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${other}": field is immutable`,
      field: 'metadata.uid',
    };
    expect([refused.code, refused.status]).toEqual([
      422,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `ClusterDeployment.hive.openshift.io "alpha" is invalid: metadata.uid: Invalid value: "${other}": field is immutable`,
        reason: 'Invalid',
        details: { name: 'alpha', group: 'hive.openshift.io', kind: 'ClusterDeployment', causes: [cause, cause] },
        code: 422,
      },
    ]);
    const after: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    expect([after.metadata.uid, after.metadata.resourceVersion]).toEqual([
      current.metadata.uid,
      current.metadata.resourceVersion,
    ]);
  });

  it('bumps generation for spec changes only', async () => {
    const before: any = await api.getNamespacedCustomObject({ ...g, name: 'alpha' });
    const labelled: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'alpha', body: { metadata: { labels: { more: 'x' } } } },
      mergePatch,
    );
    expect(labelled.metadata.generation).toBe(before.metadata.generation);
    const hibernating: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'alpha', body: { spec: { powerState: 'Hibernating' } } },
      mergePatch,
    );
    expect(hibernating.metadata.generation).toBe(before.metadata.generation + 1);
    const status: any = await api.patchNamespacedCustomObjectStatus(
      { ...g, name: 'alpha', body: { status: { powerState: 'Hibernating' } } },
      mergePatch,
    );
    expect(status.status.powerState).toBe('Hibernating');
    expect(status.metadata.generation).toBe(hibernating.metadata.generation);
    const ignored: any = await api.patchNamespacedCustomObject(
      { ...g, name: 'alpha', body: { status: { powerState: 'Running' } } },
      mergePatch,
    );
    expect(ignored.status.powerState).toBe('Hibernating');
  });

  it('moves field ownership in managedFields to the manager that changed the field', async () => {
    await api.createNamespacedCustomObject({
      ...g,
      body: cd('owned', t.namespace, { labels: { team: 'a' } }),
      fieldManager: 'alice',
    });
    const patched: any = await api.patchNamespacedCustomObject(
      {
        ...g,
        name: 'owned',
        fieldManager: 'bob',
        body: { metadata: { labels: { team: 'b' } }, spec: { powerState: 'Hibernating' } },
      },
      mergePatch,
    );
    const entry = (m: string) => patched.metadata.managedFields.find((e: any) => e.manager === m);
    expect(entry('bob').fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:team': {} } },
      'f:spec': { 'f:powerState': {} },
    });
    // alice keeps the labels map itself (a member without children encodes as {}) and the spec fields she set.
    expect(entry('alice').fieldsV1['f:metadata']['f:labels']).toEqual({});
    expect(entry('alice').fieldsV1['f:spec']['f:clusterName']).toEqual({});
    expect(patched.metadata.managedFields.map((e: any) => e.manager)).toEqual(['alice', 'bob']);
    await api.deleteNamespacedCustomObject({ ...g, name: 'owned' });
  });

  it('server-side apply: creates, conflicts on fields another manager owns, force moves them, omitted fields go', async () => {
    const apply = (body: any, fieldManager: string, force?: boolean) =>
      api.patchNamespacedCustomObject(
        { ...g, name: 'ssa', body, fieldManager, force },
        setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
      );
    const config = { ...cd('ssa', t.namespace, { labels: { app: 'x' } }) };
    const created: any = await apply(config, 'tool');
    expect(created.metadata.managedFields.map((e: any) => [e.manager, e.operation])).toEqual([['tool', 'Apply']]);
    await api.patchNamespacedCustomObject(
      { ...g, name: 'ssa', fieldManager: 'human', body: { spec: { baseDomain: 'other.example.com' } } },
      mergePatch,
    );
    const conflict = await failure(apply(config, 'tool'));
    expect([conflict.code, conflict.status.reason, conflict.status.details.causes[0].field]).toEqual([
      409,
      'Conflict',
      '.spec.baseDomain',
    ]);
    const { labels, ...metaWithoutLabels } = config.metadata;
    const forced: any = await apply({ ...config, metadata: metaWithoutLabels }, 'tool', true);
    expect(forced.spec.baseDomain).toBe('example.com');
    expect(forced.metadata.labels).toBeUndefined();
    expect(forced.metadata.managedFields.find((e: any) => e.manager === 'human')).toBeUndefined();
    await api.deleteNamespacedCustomObject({ ...g, name: 'ssa' });
  });

  it('applies JSON patches and rejects an invalid enum value with field causes', async () => {
    const patched: any = await api.patchNamespacedCustomObject({
      ...g,
      name: 'alpha',
      body: [{ op: 'replace', path: '/spec/powerState', value: 'Running' }],
    });
    expect(patched.spec.powerState).toBe('Running');
    const bad = await failure(
      api.patchNamespacedCustomObject({ ...g, name: 'alpha', body: { spec: { powerState: 'Bogus' } } }, mergePatch),
    );
    expect(bad.code).toBe(422);
    expect(bad.status.details.causes[0]).toMatchObject({ reason: 'FieldValueNotSupported', field: 'spec.powerState' });
  });

  it('filters by label and field selectors', async () => {
    await api.createNamespacedCustomObject({ ...g, body: cd('beta', t.namespace, { labels: { env: 'dev' } }) });
    await api.createNamespacedCustomObject({ ...g, body: cd('gamma', t.namespace) });
    const names = async (opts: { labelSelector?: string; fieldSelector?: string }) =>
      (await api.listNamespacedCustomObject({ ...g, ...opts })).items.map((i: any) => i.metadata.name);
    expect(await names({ labelSelector: 'env=prod' })).toEqual(['alpha']);
    expect(await names({ labelSelector: 'env!=prod' })).toEqual(['beta', 'gamma']);
    expect(await names({ labelSelector: 'env in (prod,dev)' })).toEqual(['alpha', 'beta']);
    expect(await names({ labelSelector: '!env' })).toEqual(['gamma']);
    expect(await names({ fieldSelector: 'metadata.name=beta' })).toEqual(['beta']);
    const unsupported = await failure(api.listNamespacedCustomObject({ ...g, fieldSelector: 'spec.clusterName=beta' }));
    expect([unsupported.code, unsupported.status.message]).toEqual([
      400,
      'field label not supported: spec.clusterName',
    ]);
  });

  it('pages with limit and continue', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let first: any;
    do {
      const page: any = await api.listNamespacedCustomObject({ ...g, limit: 2, _continue: token });
      first ??= page;
      seen.push(...page.items.map((i: any) => i.metadata.name));
      token = page.metadata.continue || undefined;
    } while (token);
    expect(seen).toEqual(['alpha', 'beta', 'gamma']);
    expect(first.metadata.remainingItemCount).toBe(1);
  });
});
