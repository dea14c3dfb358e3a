// Server-side printing (what `kubectl get` asks for): Accept application/json;as=Table;g=meta.k8s.io;v=v1 turns
// GET, LIST and watch answers into Tables with the CRD's additionalPrinterColumns or the built-in kind's columns.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { kubeHttp, type KubeHttp } from './support/kube-http.js';
import { cd } from './support/k8s.js';

const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describeTargets('Table output on %s', (targetName) => {
  let t: Target;
  let http: KubeHttp;
  let cds: string;
  let syncSets: string;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: { accept?: string; contentType?: string } = {},
  ) => {
    const res = await http.call({
      method,
      path,
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : (headers.contentType ?? 'application/json'),
      accept: headers.accept,
    });
    return { code: res.status, body: JSON.parse(res.text) };
  };
  // SyncSet is a Hive kind without printer columns: its Table has the default Name and Age.
  const syncSet = (name: string) => ({
    apiVersion: 'hive.openshift.io/v1',
    kind: 'SyncSet',
    metadata: { name },
    spec: { clusterDeploymentRefs: [{ name: 't1' }] },
  });

  beforeAll(async () => {
    t = await startTarget(targetName);
    http = kubeHttp(t.kc);
    cds = `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`;
    syncSets = `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/syncsets`;
    expect((await call('POST', syncSets, syncSet('s1'))).code).toBe(201);
    expect(
      (
        await call(
          'POST',
          cds,
          cd('t1', t.namespace, {
            labels: { 'hive.openshift.io/cluster-platform': 'aws', 'hive.openshift.io/version': '4.16.3' },
          }),
        )
      ).code,
    ).toBe(201);
    await call(
      'PATCH',
      `${cds}/t1/status`,
      {
        status: {
          powerState: 'Running',
          conditions: [
            { type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning', message: 'm' },
            { type: 'Provisioned', status: 'True', reason: 'ProvisionSucceeded', message: 'done' },
          ],
        },
      },
      { contentType: 'application/merge-patch+json' },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists custom resources with the CRD printer columns, JSONPath filters included', async () => {
    const { code, body } = await call('GET', cds, undefined, { accept: TABLE });
    expect(code).toBe(200);
    expect(body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(body.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'InfraID',
      'Platform',
      'Region',
      'Version',
      'ClusterType',
      'ProvisionStatus',
      'PowerState',
      'Age',
    ]);
    expect(body.columnDefinitions[0]).toMatchObject({ type: 'string', format: 'name', priority: 0 });
    expect(body.columnDefinitions[8]).toMatchObject({ name: 'Age', type: 'date' });
    const [row] = body.rows;
    expect(row.cells.slice(0, 8)).toEqual(['t1', null, 'aws', null, '4.16.3', null, 'ProvisionSucceeded', 'Running']);
    expect(row.cells[8]).toMatch(/^\d+s$/);
    // includeObject defaults to Metadata: the row carries the object's metadata only.
    expect(row.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 't1', namespace: t.namespace },
    });
    expect(row.object.spec).toBeUndefined();
  });

  it('gives custom resources without printer columns Name and Age, and honours includeObject', async () => {
    const { body } = await call('GET', `${syncSets}/s1?includeObject=Object`, undefined, { accept: TABLE });
    expect(body.kind).toBe('Table');
    expect(body.columnDefinitions.map((c: any) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Age:date']);
    expect(body.rows).toHaveLength(1);
    expect(body.rows[0].object.spec.clusterDeploymentRefs).toEqual([{ name: 't1' }]);
    const none = await call('GET', `${syncSets}?includeObject=None`, undefined, { accept: TABLE });
    expect(none.body.rows[0].object).toBeNull();
    const plain = await call('GET', syncSets, undefined, { accept: 'application/json' });
    expect(plain.body.kind).toBe('SyncSetList');
  });

  it('prints built-in kinds with their own columns: Age is a string column there, and counts are integers', async () => {
    const ns = await call('GET', '/api/v1/namespaces', undefined, { accept: TABLE });
    expect(ns.body.columnDefinitions.map((c: any) => `${c.name}:${c.type}`)).toEqual([
      'Name:string',
      'Status:string',
      'Age:string',
    ]);
    expect(ns.body.rows.find((r: any) => r.cells[0] === 'default').cells[1]).toBe('Active');
    await call('POST', `/api/v1/namespaces/${t.namespace}/secrets`, {
      metadata: { name: 's' },
      stringData: { a: '1', b: '2' },
    });
    const secrets = await call('GET', `/api/v1/namespaces/${t.namespace}/secrets`, undefined, { accept: TABLE });
    expect(secrets.body.columnDefinitions.map((c: any) => `${c.name}:${c.type}`)).toEqual([
      'Name:string',
      'Type:string',
      'Data:string',
      'Age:string',
    ]);
    const row = secrets.body.rows.find((r: any) => r.cells[0] === 's');
    expect(row.cells.slice(0, 3)).toEqual(['s', 'Opaque', 2]);
    expect(row.cells[3]).toMatch(/^\d+s$/);
  });

  it('streams watch events as one-row Tables, with column definitions only in the first', async () => {
    const res = http.call({
      method: 'GET',
      path: `${syncSets}?watch=true&timeoutSeconds=1`,
      accept: TABLE,
      onStart: () => void call('POST', syncSets, syncSet('s2')),
    });
    const events = (await res).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => `${e.type} ${e.object.kind} ${e.object.rows[0].cells[0]}`)).toEqual([
      'ADDED Table s1',
      'ADDED Table s2',
    ]);
    expect(events[0].object.columnDefinitions).toHaveLength(2);
    expect(events[1].object.columnDefinitions).toBeUndefined();
  });
});
