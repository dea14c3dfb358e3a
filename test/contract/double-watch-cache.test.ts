// The watch cache, which only the double lets a test control (etcd compaction and the cache's size are not
// reachable through the API): a watch resumes from the resource's watch cache even after etcd compacted those
// revisions (golden 58), and only a version older than the cache's window gets the in-band 410 (golden 59).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { rawCall } from './support/raw-http.js';
import { cd } from './support/k8s.js';

const WINDOW = 5;
const CDS = '/apis/hive.openshift.io/v1/namespaces/default/clusterdeployments';

describe("the double's watch cache", () => {
  let server: ApiServer;
  const call = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const res = await rawCall({
      method,
      url: server.url + path,
      token: server.token,
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : contentType,
    });
    return {
      status: res.status,
      text: res.text,
      body: res.text.startsWith('{') && !res.text.includes('\n{') ? JSON.parse(res.text) : undefined,
    };
  };
  const label = (name: string, n: number) =>
    call('PATCH', `${CDS}/${name}`, { metadata: { labels: { n: String(n) } } }, 'application/merge-patch+json');
  /** The events a watch from `rv` gets before the server ends it. */
  const watchFrom = async (rv: string) =>
    (await call('GET', `${CDS}?watch=true&resourceVersion=${rv}&timeoutSeconds=1`)).text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  beforeAll(async () => {
    server = await startApiServer({ crds: hiveCrds(), watchHistory: WINDOW });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('replays a watch from a version etcd has compacted while the watch cache still holds its events', async () => {
    const created = (await call('POST', CDS, cd('c1', 'default'))).body;
    const from = created.metadata.resourceVersion;
    for (const n of [1, 2, 3]) await label('c1', n);
    server.compact();
    // etcd no longer has that revision: an exact LIST at it is gone (golden 61)...
    const list = await call('GET', `${CDS}?resourceVersion=${from}&resourceVersionMatch=Exact`);
    expect([list.status, list.body.message]).toEqual([410, 'The resourceVersion for the provided list is too old.']);
    // ...but the watch cache replays everything after it (golden 58).
    const events = await watchFrom(from);
    expect(events.map((e) => `${e.type} ${e.object.metadata.labels.n}`)).toEqual([
      'MODIFIED 1',
      'MODIFIED 2',
      'MODIFIED 3',
    ]);
  });

  it('answers 410 in-band only for a version older than the window, naming the oldest it can serve from', async () => {
    const from = (await call('GET', `${CDS}/c1`)).body.metadata.resourceVersion;
    const rvs: string[] = [];
    for (let n = 4; n < 4 + WINDOW + 2; n++) rvs.push((await label('c1', n)).body.metadata.resourceVersion);
    // The window holds the last WINDOW events: resuming from just before the oldest of them still works.
    const oldestKept = rvs[rvs.length - WINDOW]!;
    const fromEdge = await watchFrom(String(Number(oldestKept) - 1));
    expect(fromEdge.map((e) => e.type)).toEqual(Array(WINDOW).fill('MODIFIED'));
    // One event further back is beyond it: HTTP 200 with a single ERROR line (golden 59), then the stream ends.
    const res = await call('GET', `${CDS}?watch=true&resourceVersion=${from}&timeoutSeconds=5`);
    expect(res.status).toBe(200);
    expect(
      res.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Expired',
          code: 410,
          message: `too old resource version: ${from} (${Number(oldestKept) - 1})`,
        },
      },
    ]);
  });

  it("keeps a window per resource: writes to other resources do not push a resource's events out", async () => {
    const from = (await call('GET', `${CDS}/c1`)).body.metadata.resourceVersion;
    await label('c1', 100);
    for (let i = 0; i < WINDOW * 3; i++)
      await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${i}` } });
    const events = await watchFrom(from);
    expect(events.map((e) => `${e.type} ${e.object.metadata.labels.n}`)).toEqual(['MODIFIED 100']);
  });
});
