// A CustomResourceDefinition created at run time is served at once it is Established: discovery, CRUD, schema
// defaults and validation. Its group is unique to the run, and it is removed afterwards (a real server keeps it
// otherwise).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { eventually } from './support/k8s.js';
import { kubeHttp, type KubeHttp } from './support/kube-http.js';

describeTargets('CRDs created at run time on %s', (targetName) => {
  let t: Target;
  let http: KubeHttp;
  let group: string;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await http.call({
      method,
      path,
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : 'application/json',
    });
    return { code: res.status, body: res.text.startsWith('{') ? JSON.parse(res.text) : res.text };
  };
  beforeAll(async () => {
    t = await startTarget(targetName);
    http = kubeHttp(t.kc);
    group = `${t.namespace}.example.com`;
  });
  afterAll(async () => {
    if (http) await call('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`);
    await t?.close();
  });

  it('serves discovery, CRUD, defaults and schema validation for it', async () => {
    // Raw JSON: client-node's serializer renames JSONSchemaProps.default and would drop it.
    const created = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 1 } } } },
              },
            },
          },
        ],
      },
    });
    expect(created.code).toBe(201);
    await eventually(async () =>
      (
        await call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`)
      ).body.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True'),
    );
    const discovery = await eventually(async () => {
      const d = await call('GET', `/apis/${group}/v1`);
      return d.code === 200 && d.body;
    });
    expect(discovery.resources.map((r: any) => r.name)).toEqual(['widgets', 'widgets/status']);
    const widgets = `/apis/${group}/v1/namespaces/${t.namespace}/widgets`;
    const w = await eventually(async () => {
      const r = await call('POST', widgets, {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: {},
      });
      return r.code === 201 && r.body;
    });
    expect(w.spec.size).toBe(1);
    const bad = await call('POST', widgets, {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'w2' },
      spec: { size: 'big' },
    });
    expect(bad.code).toBe(422);
    expect(bad.body.details.causes[0]).toMatchObject({ reason: 'FieldValueTypeInvalid', field: 'spec.size' });
  });
});
