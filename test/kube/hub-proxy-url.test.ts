// A hub reached through an HTTP proxy (the kubeconfig cluster's proxy-url, as client-go reads it): Beekeeper's hub
// client tunnels to the hub with CONNECT, sends the proxy's credentials from the URL to the proxy only, verifies the
// hub's certificate through the tunnel, and says neither the proxy's password nor the hub's token when it fails.
import http from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/kube/rest-client.js';
import { credentialPlugin, useRecordingHub } from './recording-hub.js';

const PROXY_PASSWORD = 'proxy-secret-never-logged';
const TOKEN = 'hub-token-never-logged';
const { hub, dir, kubeconfig, trusting, sentBy, failureOf, hubStatus } = useRecordingHub('proxy-url');
const plugin = credentialPlugin(dir);

interface Tunnel {
  target: string;
  proxyAuthorization?: string;
}

/** A CONNECT proxy that records each tunnel asked for; `refuse` answers 407 instead. */
async function startConnectProxy() {
  const tunnels: Tunnel[] = [];
  const sockets = new Set<Socket>();
  let refuse = false;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    tunnels.push({ target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] });
    if (refuse) return client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    tunnels,
    refusing: (on: boolean) => void (refuse = on),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

let proxy: Awaited<ReturnType<typeof startConnectProxy>>;

beforeAll(async () => {
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await proxy?.close();
});

const viaProxy = (proxyUrl: string, user: Record<string, unknown> = { token: TOKEN }) =>
  kubeconfig(user, { ...trusting(), 'proxy-url': proxyUrl });

const secretsIn = (text: string) =>
  [PROXY_PASSWORD, TOKEN, Buffer.from(`beekeeper:${PROXY_PASSWORD}`).toString('base64')].filter((s) =>
    text.includes(s),
  );

describe('a hub behind an HTTP proxy (proxy-url)', () => {
  it('tunnels to the hub with CONNECT: the hub gets the request and token, the proxy its own credentials only', async () => {
    const before = proxy.tunnels.length;
    const got = await sentBy(viaProxy(`http://beekeeper:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`));
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got.headers['proxy-authorization']).toBeUndefined();
    const tunnel = proxy.tunnels[before];
    expect(tunnel?.target).toBe(new URL(hub.origin).host);
    expect(tunnel?.proxyAuthorization).toBe(`Basic ${Buffer.from(`beekeeper:${PROXY_PASSWORD}`).toString('base64')}`);
  });

  it('sends the whole impersonation through the proxy too: one Impersonate-Group line per group', async () => {
    const got = await sentBy(
      viaProxy(`http://127.0.0.1:${proxy.port}`, { token: TOKEN, as: 'alice', 'as-groups': ['hive-admins', 'ops'] }),
    );
    expect(got.lines.filter(([name]) => name.startsWith('impersonate-'))).toEqual([
      ['impersonate-user', 'alice'],
      ['impersonate-group', 'hive-admins'],
      ['impersonate-group', 'ops'],
    ]);
  });

  it("keeps an exec plugin's credential that has no expiry until the hub answers 401, then runs the plugin once and sends again", async () => {
    plugin.neverExpire();
    const kc = viaProxy(`http://127.0.0.1:${proxy.port}`, plugin.user());
    const rest = createRestClient(() => kc);
    const first = plugin.runs() + 1;
    for (let i = 0; i < 3; i++) await rest.request('GET', '/api/v1/namespaces');
    expect(plugin.runs()).toBe(first);
    hub.refused.add(`Bearer exec-${first}`);
    const sent = hub.seen.length;
    await rest.request('GET', '/api/v1/namespaces');
    expect(plugin.runs()).toBe(first + 1);
    expect(hub.seen.slice(sent).map((s) => s.headers.authorization)).toEqual([
      `Bearer exec-${first}`,
      `Bearer exec-${first + 1}`,
    ]);
  });

  it("a proxy that refuses the tunnel fails the request without its password or the hub's token", async () => {
    proxy.refusing(true);
    try {
      const kc = viaProxy(`http://beekeeper:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`);
      const err = await failureOf(kc, '/api');
      expect(secretsIn(`${String(err)} ${JSON.stringify(err)} ${(err as Error).stack}`)).toEqual([]);
      const status = await hubStatus(kc);
      expect(status).toMatchObject({ reachable: false });
      expect(secretsIn(JSON.stringify(status))).toEqual([]);
    } finally {
      proxy.refusing(false);
    }
  });

  it("a proxy that is down fails the request without its password or the hub's token", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const kc = viaProxy(`http://beekeeper:${PROXY_PASSWORD}@127.0.0.1:${port}`);
    const err = await failureOf(kc, '/api');
    expect(String((err as Error).message)).toMatch(/ECONNREFUSED/);
    expect(secretsIn(`${String(err)} ${JSON.stringify(err)} ${(err as Error).stack}`)).toEqual([]);
    const status = await hubStatus(kc);
    expect(status).toMatchObject({ reachable: false });
    expect(secretsIn(JSON.stringify(status))).toEqual([]);
  });
});
