// A real kube-apiserver gzips an answer over 128 KiB when the client asks (its APIResponseCompression filter), as
// client-go's transport always asks: a LIST page of a big hub, fetched over a WAN. Beekeeper asks too and reads the
// compressed answer, a hub's refusal included. A bare HTTP server plays the API server here (the simulator never
// compresses).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ApiException, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/kube/rest-client.js';

const items = Array.from({ length: 3_000 }, (_, i) => ({
  metadata: { name: `ns-${i}`, labels: { team: 'payments' } },
}));
const bigList = JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items });
const refusal = JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: 'no' });

let server: http.Server;
let seen: http.IncomingHttpHeaders[] = [];
let kc: KubeConfig;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const [status, text] = req.url?.startsWith('/api/v1/namespaces') ? [200, bigList] : [403, refusal];
    res.writeHead(status, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    res.end(gzip ? gzipSync(text) : text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      { name: 'hub', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
    ],
    users: [{ name: 'u', token: 'tok' }],
    contexts: [{ name: 'hub', cluster: 'hub', user: 'u' }],
    currentContext: 'hub',
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('compressed answers from a hub', () => {
  it('asks for gzip and reads a compressed LIST as the JSON it holds', async () => {
    seen = [];
    const list = await createRestClient(() => kc).request<{ items: unknown[] }>('GET', '/api/v1/namespaces');
    expect(seen[0]?.['accept-encoding']).toBe('gzip');
    expect(Buffer.byteLength(bigList)).toBeGreaterThan(128 * 1024);
    expect(list.items).toHaveLength(3_000);
    expect(list.items[2_999]).toEqual(items[2_999]);
  });

  it("reads a compressed refusal as the hub's Status", async () => {
    const err = await createRestClient(() => kc)
      .request('GET', '/apis/hive.openshift.io/v1/clusterdeployments')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(403);
    expect(JSON.parse((err as ApiException<string>).body)).toMatchObject({ reason: 'Forbidden' });
  });
});
