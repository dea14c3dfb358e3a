// Server-side printing (what `kubectl get` asks for): Accept application/json;as=Table;g=meta.k8s.io;v=v1 turns
// GET, LIST and watch answers into Tables with the CRD's additionalPrinterColumns or the built-in kind's columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { upstreamCrds } from '../support/upstream-crds.js';
import { cd } from './support/k8s.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('Table output', () => {
  let upstream: ApiServer;
  let project: ApiServer;
  const call = async (s: ApiServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(s.url + path, { method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', ...headers } });
    return { code: res.status, body: await res.json() as any };
  };
  const cds = '/apis/hive.openshift.io/v1/namespaces/default/clusterdeployments';
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';
  const widget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { size: 1 } });

  beforeAll(async () => {
    upstream = await startApiServer({ crds: upstreamCrds() });
    project = await startApiServer({ crds: [...hiveCrds(), {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }] },
    }] });
    await call(project, 'POST', widgets, widget('w1'));
    for (const s of [upstream, project]) {
      await call(s, 'POST', cds, cd('t1', 'default', { labels: { 'hive.openshift.io/cluster-platform': 'aws', 'hive.openshift.io/version': '4.16.3' } }));
    }
    await call(upstream, 'PATCH', `${cds}/t1/status`, { status: { powerState: 'Running', conditions: [
      { type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning', message: 'm' },
      { type: 'Provisioned', status: 'True', reason: 'ProvisionSucceeded', message: 'done' }] } },
    { 'content-type': 'application/merge-patch+json' });
  });
  afterAll(async () => { await upstream?.close(); await project?.close(); });

  it.skipIf(!upstreamCrds().length)('lists custom resources with the CRD printer columns, JSONPath filters included', async () => {
    const { code, body } = await call(upstream, 'GET', cds, undefined, { accept: TABLE });
    expect(code).toBe(200);
    expect(body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(body.columnDefinitions.map((c: any) => c.name))
      .toEqual(['Name', 'InfraID', 'Platform', 'Region', 'Version', 'ClusterType', 'ProvisionStatus', 'PowerState', 'Age']);
    expect(body.columnDefinitions[0]).toMatchObject({ type: 'string', format: 'name', priority: 0 });
    const [row] = body.rows;
    expect(row.cells.slice(0, 8)).toEqual(['t1', null, 'aws', null, '4.16.3', null, 'ProvisionSucceeded', 'Running']);
    expect(row.cells[8]).toMatch(/^\d+s$/);
    // includeObject defaults to Metadata: the row carries the object's metadata only.
    expect(row.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 't1', namespace: 'default' } });
    expect(row.object.spec).toBeUndefined();
  });

  it('gives custom resources without printer columns Name and Age, and honours includeObject', async () => {
    const { body } = await call(project, 'GET', `${widgets}/w1?includeObject=Object`, undefined, { accept: TABLE });
    expect(body.kind).toBe('Table');
    expect(body.columnDefinitions.map((c: any) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Age:date']);
    expect(body.rows).toHaveLength(1);
    expect(body.rows[0].object.spec.size).toBe(1);
    const none = await call(project, 'GET', `${widgets}?includeObject=None`, undefined, { accept: TABLE });
    expect(none.body.rows[0].object).toBeNull();
    const plain = await call(project, 'GET', widgets, undefined, { accept: 'application/json' });
    expect(plain.body.kind).toBe('WidgetList');
  });

  it('prints built-in kinds with their own columns', async () => {
    const ns = await call(project, 'GET', '/api/v1/namespaces', undefined, { accept: TABLE });
    expect(ns.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(ns.body.rows.find((r: any) => r.cells[0] === 'default').cells[1]).toBe('Active');
    await call(project, 'POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, stringData: { a: '1', b: '2' } });
    const secrets = await call(project, 'GET', '/api/v1/namespaces/default/secrets', undefined, { accept: TABLE });
    expect(secrets.body.rows[0].cells.slice(0, 3)).toEqual(['s', 'Opaque', '2']);
  });

  it('streams watch events as one-row Tables, with column definitions only in the first', async () => {
    const res = await fetch(`${project.url}${widgets}?watch=true&timeoutSeconds=1`, { headers: { authorization: `Bearer ${project.token}`, accept: TABLE } });
    const reader = res.body!.getReader();
    let text = '';
    const created = call(project, 'POST', widgets, widget('w2'));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    await created;
    const events = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => `${e.type} ${e.object.kind} ${e.object.rows[0].cells[0]}`)).toEqual(['ADDED Table w1', 'ADDED Table w2']);
    expect(events[0].object.columnDefinitions).toHaveLength(2);
    expect(events[1].object.columnDefinitions).toBeUndefined();
  });
});
