// A hub's kubeconfig comes from a mounted Secret that changes under the running process: a token is rotated, the
// server moves, someone applies a broken file. Beekeeper (api + worker on real Redis) against the simulator, its hub
// kubeconfig written the way the kubelet writes a Secret volume, carries on through each change without a restart.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { systemClock } from '../../src/clock.js';
import { ConfigError, loadConfig, withEmbeddedHub } from '../../src/config.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createKubeGateway } from '../../src/kube/gateway.js';
import { createLogger } from '../../src/logger.js';
import type { HubStatus, JobView } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { cd, secretVolume } from './support.js';

const HUB = 'east';
const ns = 'reload';
const dir = mkdtempSync(join(tmpdir(), 'beekeeper-hubs-'));
const kubeconfigPath = join(dir, `${HUB}.kubeconfig`);

let sim: Simulator;
let system: System;
let proxy: Proxy;
const tokens: Record<'a' | 'b', string> = { a: '', b: '' };

// What Beekeeper logged, as JSON lines, and waits for a message to come.
const lines: Array<Record<string, unknown>> = [];
const waiting: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const text of String(chunk).split('\n').filter(Boolean)) {
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      for (const w of waiting.filter((x) => x.msg === line.msg)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
    done();
  },
});
const nextLog = (msg: string) =>
  new Promise<Record<string, unknown>>((resolve) => waiting.push({ msg, resolve: (l) => resolve(l) }));

const writeLikeKubelet = secretVolume(dir);

const kubeconfig = (server: string, token: string, context = HUB) =>
  toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: context, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: context, user: { token } }],
    contexts: [{ name: context, context: { cluster: context, user: context } }],
    'current-context': context,
  });

/** The hub's API server as its admin reaches it (not Beekeeper's identity). */
async function admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const hub = sim.hubs[0]!;
  const res = await fetch(hub.url + path, {
    method,
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A second address of the same API server: a TCP relay that counts its open connections. */
interface Proxy {
  url: string;
  /** Resolves once no connection through the relay is open. */
  drained(): Promise<void>;
  close(): Promise<void>;
}
async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let onIdle: (() => void) | undefined;
  const server: Server = createServer((client) => {
    open.add(client);
    const upstream = connect(Number(port), hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
      if (open.delete(client) && open.size === 0) onIdle?.();
    };
    for (const s of [client, upstream]) s.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    drained: () =>
      new Promise<void>((resolve) => {
        if (open.size === 0) return resolve();
        onIdle = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const get = async <T>(url: string) => {
  const res = await system.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};
const hubStatus = async () => (await get<{ items: HubStatus[] }>('/v1/hubs')).items.find((h) => h.name === HUB)!;
const clusterNames = async () =>
  (await get<{ items: Array<{ name: string }> }>(`/v1/clusters?hub=${HUB}`)).items.map((c) => c.name).sort();
const reloadsCounted = async () => {
  const text = (await system.app.inject({ method: 'GET', url: '/metrics' })).body;
  const count = (outcome: string) =>
    Number(
      new RegExp(`beekeeper_hub_credential_reloads_total\\{hub="${HUB}",outcome="${outcome}"\\} (\\d+)`).exec(
        text,
      )?.[1],
    );
  return { success: count('success'), failure: count('failure') };
};

async function installedCluster(name: string, via: 'beekeeper' | 'admin') {
  const obj: ClusterDeployment = cd(name, ns);
  obj.metadata.annotations = { 'hive.openshift.io/fake-cluster': 'true' };
  obj.spec.installed = true;
  obj.spec.clusterMetadata = {
    clusterID: `${name}-id`,
    infraID: `${name}-infra`,
    adminKubeconfigSecretRef: { name: 'kc' },
  };
  if (via === 'beekeeper') await system.store.create('ClusterDeployment', HUB, obj);
  else
    expect((await admin('POST', `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments`, obj)).status).toBe(
      201,
    );
  await system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: HUB, namespace: ns, name },
    (o) => (o?.status?.powerState === 'Running' ? true : undefined),
    { timeoutMs: 30_000 },
  );
}

beforeAll(async () => {
  sim = await startSimulator({ hubNames: [HUB], speed: 1000 });
  // Beekeeper's identity: two ServiceAccounts with every right, so that revoking one (deleting it) leaves the other.
  await admin('POST', '/api/v1/namespaces', { metadata: { name: 'hub-access' } });
  await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    metadata: { name: 'everything' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  });
  for (const who of ['a', 'b'] as const) {
    await admin('POST', '/api/v1/namespaces/hub-access/serviceaccounts', { metadata: { name: `beekeeper-${who}` } });
    await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: `beekeeper-${who}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'everything' },
      subjects: [{ kind: 'ServiceAccount', name: `beekeeper-${who}`, namespace: 'hub-access' }],
    });
    const issued = await admin<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/hub-access/serviceaccounts/beekeeper-${who}/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    );
    tokens[who] = issued.body.status.token;
  }
  proxy = await startProxy(sim.hubs[0]!.url);
  writeLikeKubelet({ [`${HUB}.kubeconfig`]: kubeconfig(proxy.url, tokens.a) });

  const config = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-reload-${randomUUID().slice(0, 8)}}`,
    BEEKEEPER_HUBS: `${HUB}=${kubeconfigPath}#${HUB}`,
    BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS: '1',
  });
  const log = createLogger({ level: 'info', destination: sink });
  await prepareEmbeddedHub({
    hub: withEmbeddedHub(config, { name: HUB, kubeconfigData: sim.kubeconfigYaml() }).hubs[0]!,
    namespace: config.stateNamespace,
    clock: systemClock,
    log,
  });
  system = await createSystem({ config, log, clock: systemClock, roles: ['api', 'worker'], healthRefreshMs: 200 });
  await system.store.create('Namespace', HUB, { metadata: { name: ns } });
  await installedCluster('before', 'beekeeper');
});

afterAll(async () => {
  await system?.close();
  await proxy?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hub credentials reloaded from a changing Secret volume', () => {
  let loadedAt: string | undefined;

  it('a rotated token and a moved server take effect without a restart: reads, the watch and jobs carry on', async () => {
    const first = await hubStatus();
    expect(first).toMatchObject({ reachable: true, hiveCrdsPresent: true });
    expect(await clusterNames()).toEqual(['before']);
    const changes: string[] = [];
    system.store.onChange<ClusterDeployment>('ClusterDeployment', (_hub, type, obj) =>
      changes.push(`${type} ${obj.metadata.name}`),
    );

    // Token B and the server's own address instead of the relay; then token A is revoked and the relay closed. Lists
    // of ClusterDeployments fail meanwhile: the informer must resume its watch, not relist.
    sim.hubs[0]!.server.faults.set({ errors: [{ verb: 'list', resource: 'clusterdeployments', rate: 1, code: 500 }] });
    const reloaded = nextLog('hub credentials reloaded');
    writeLikeKubelet({ [`${HUB}.kubeconfig`]: kubeconfig(sim.hubs[0]!.url, tokens.b) });
    expect(await reloaded).toMatchObject({ hub: HUB, file: kubeconfigPath });
    await admin('DELETE', '/api/v1/namespaces/hub-access/serviceaccounts/beekeeper-a');
    const withA = await fetch(`${sim.hubs[0]!.url}/api/v1/namespaces`, {
      headers: { authorization: `Bearer ${tokens.a}` },
    });
    expect(withA.status).toBe(401);
    // The open watches were reopened on the new address (nothing is left on the old one), so closing it harms nothing.
    await proxy.drained();
    await proxy.close();

    expect(await clusterNames()).toEqual(['before']);
    const now = await hubStatus();
    expect(now).toMatchObject({ reachable: true, hiveCrdsPresent: true });
    expect(now.credentialsProblem).toBeUndefined();
    expect(Date.parse(now.credentialsLoadedAt!)).toBeGreaterThan(Date.parse(first.credentialsLoadedAt!));
    loadedAt = now.credentialsLoadedAt;

    // A change made on the hub after the swap reaches Beekeeper's cache: the watch resumed.
    await installedCluster('after', 'admin');
    expect(await clusterNames()).toEqual(['after', 'before']);
    sim.hubs[0]!.server.faults.clear();

    const res = await system.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${ns}/before/hibernate?wait=60` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ job: JobView }>().job).toMatchObject({
      state: 'completed',
      result: { powerState: 'Hibernating' },
    });

    // The cache was kept: no object was added again or deleted because the watch moved.
    expect(changes.filter((c) => !c.startsWith('MODIFIED') && c !== 'ADDED after')).toEqual([]);
    expect(await reloadsCounted()).toEqual({ success: 1, failure: 0 });
    expect(lines.filter((l) => l.msg === 'informer failed; restarting with backoff')).toEqual([]);
  });

  it('a broken kubeconfig keeps the last good connection and says why, naming the hub and file, never the token', async () => {
    const broken = {
      unparseable: kubeconfig(sim.hubs[0]!.url, tokens.b).replace('current-context:', '   oops: [\ncurrent-context:'),
      'wrong context': kubeconfig(sim.hubs[0]!.url, tokens.b, 'west'),
    };
    const reasons: string[] = [];
    for (const text of Object.values(broken)) {
      const warned = nextLog('hub credentials not reloaded: keeping the last good ones');
      writeLikeKubelet({ [`${HUB}.kubeconfig`]: text });
      const line = await warned;
      expect(line).toMatchObject({ level: 40, hub: HUB, file: kubeconfigPath });
      reasons.push(String(line.reason));

      expect(await clusterNames()).toEqual(['after', 'before']);
      const status = await hubStatus();
      expect(status).toMatchObject({ reachable: true, credentialsLoadedAt: loadedAt, credentialsProblem: line.reason });
    }
    expect(reasons).toEqual([
      `hub ${HUB}: cannot parse ${kubeconfigPath}: bad indentation of a sequence entry at line 17`,
      `hub ${HUB}: context "${HUB}" is not in the kubeconfig`,
    ]);
    expect(JSON.stringify(lines)).not.toContain(tokens.b);
    expect(await reloadsCounted()).toEqual({ success: 1, failure: 2 });

    // Jobs still run on the connection kept, and a good file is taken again.
    const res = await system.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${ns}/after/hibernate?wait=60` });
    expect(res.json<{ job: JobView }>().job).toMatchObject({ state: 'completed' });
    const reloaded = nextLog('hub credentials reloaded');
    writeLikeKubelet({ [`${HUB}.kubeconfig`]: kubeconfig(sim.hubs[0]!.url, tokens.b) });
    await reloaded;
    expect((await hubStatus()).credentialsProblem).toBeUndefined();
  });

  it('a hub whose kubeconfig is missing at start-up comes up once the file appears', async () => {
    const late = join(dir, 'late.kubeconfig');
    const messages: string[] = [];
    const note = (_obj: object, msg?: string) => void messages.push(msg ?? '');
    const gw = await createKubeGateway({
      hubs: [{ name: HUB, kubeconfig: late }],
      log: { info: note, warn: note, error: note },
      clock: systemClock,
      cachedKinds: ['ClusterDeployment'],
      credentialsPollMs: 100,
    });
    try {
      expect((await gw.hubStatus())[0]).toMatchObject({
        reachable: false,
        message: `hub ${HUB}: cannot read ${late} (ENOENT)`,
      });
      writeFileSync(late, kubeconfig(sim.hubs[0]!.url, tokens.b));
      const seen = await gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'before' }, (o) => o, {
        timeoutMs: 10_000,
      });
      expect(seen.metadata.name).toBe('before');
      expect((await gw.hubStatus())[0]).toMatchObject({ reachable: true });
      expect(messages).toContain('hub credentials reloaded');
    } finally {
      await gw.close();
    }
  });
});

describe('the poll interval', () => {
  it('defaults to 20 s, is set by BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS, and a value out of range is named', () => {
    expect(loadConfig({}).hubCredentials).toEqual({ pollSeconds: 20 });
    expect(loadConfig({ BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS: '10' }).hubCredentials).toEqual({ pollSeconds: 10 });
    const refused = (() => {
      try {
        loadConfig({ BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS: '0' });
      } catch (err) {
        return (err as ConfigError).issues;
      }
    })();
    expect(refused).toEqual([expect.stringMatching(/^BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS: 0 is outside 1\.\.3600/)]);
  });
});
