// The state hub is the cluster Beekeeper runs on (`inCluster: true`): its projected ServiceAccount token is rotated
// by the kubelet every hour. client-node re-reads the token file only once a minute, so without a reload a request
// in that minute would still carry a token that may already be revoked. Here the pod's service account files live
// under a stand-in root, the API server double serves TLS with the CA from ca.crt, and the token is swapped and the
// old one revoked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { SERVICE_ACCOUNT_DIR } from '../../src/kube/kubeconfig.js';
import { requestJson, type KubeTarget } from '../../src/sim/client/transport.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd, quietLog, secretVolume } from './support.js';

const HUB = 'home';
const ns = 'in-cluster';
const root = mkdtempSync(join(tmpdir(), 'beekeeper-pod-'));
const writeServiceAccount = secretVolume(join(root, SERVICE_ACCOUNT_DIR));
let sim: Simulator;
let admin: KubeTarget;
let gw: KubeGateway;
const tokens: Record<string, string> = {};
const env = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
const reloads: string[] = [];
let onReload: (() => void) | undefined;

/** The server's certificate, as the pod's ca.crt holds its cluster's CA. */
const serverCertificate = (url: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!.toString());
      socket.end();
    });
    socket.on('error', reject);
  });

beforeAll(async () => {
  sim = await startSimulator({ hubNames: [HUB], controllers: false, tls: true });
  const { url, token } = sim.hubs[0]!;
  admin = { server: url, token, insecureSkipTLSVerify: true };
  const post = (path: string, body: unknown) => requestJson(admin, { method: 'POST', path, body });
  await post('/api/v1/namespaces', { metadata: { name: 'beekeeper' } });
  await post('/api/v1/namespaces', { metadata: { name: ns } });
  await post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    metadata: { name: 'everything' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  });
  for (const who of ['a', 'b']) {
    await post('/api/v1/namespaces/beekeeper/serviceaccounts', { metadata: { name: `pod-${who}` } });
    await post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: `pod-${who}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'everything' },
      subjects: [{ kind: 'ServiceAccount', name: `pod-${who}`, namespace: 'beekeeper' }],
    });
    const issued = await post(`/api/v1/namespaces/beekeeper/serviceaccounts/pod-${who}/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    });
    tokens[who] = issued.status.token;
  }
  const ca = await serverCertificate(url);
  writeServiceAccount({ token: tokens.a!, 'ca.crt': ca, namespace: 'beekeeper' });
  // What the kubelet sets in every pod; client-node's in-cluster loader builds the server URL from them.
  process.env.KUBERNETES_SERVICE_HOST = '127.0.0.1';
  process.env.KUBERNETES_SERVICE_PORT = new URL(url).port;
  gw = await createKubeGateway({
    hubs: [{ name: HUB, inCluster: true, inClusterRoot: root }],
    log: quietLog,
    clock: systemClock,
    cachedKinds: ['ClusterDeployment'],
    credentialsPollMs: 200,
    onCredentialsReload: (_hub, outcome) => {
      reloads.push(outcome);
      onReload?.();
    },
  });
});

afterAll(async () => {
  await gw?.close();
  await sim?.close();
  for (const [key, value] of [
    ['KUBERNETES_SERVICE_HOST', env.host],
    ['KUBERNETES_SERVICE_PORT', env.port],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

describe('in-cluster hub', () => {
  it('uses the rotated ServiceAccount token as soon as the kubelet swaps it, the old one revoked', async () => {
    await gw.create('ClusterDeployment', HUB, cd('with-a', ns));
    expect((await gw.hubStatus())[0]).toMatchObject({ reachable: true, hiveCrdsPresent: true });

    const reloaded = new Promise<void>((resolve) => (onReload = resolve));
    writeServiceAccount({ token: tokens.b!, 'ca.crt': await serverCertificate(admin.server), namespace: 'beekeeper' });
    await reloaded;
    await requestJson(admin, { method: 'DELETE', path: '/api/v1/namespaces/beekeeper/serviceaccounts/pod-a' });

    // Within the minute client-node would have kept token A: the write goes through with B, and the watch (reopened
    // with B) delivers it.
    await gw.create('ClusterDeployment', HUB, cd('with-b', ns));
    const seen = await gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'with-b' }, (o) => o, {
      timeoutMs: 10_000,
    });
    expect(seen.metadata.name).toBe('with-b');
    expect(reloads).toEqual(['reloaded']);
    expect((await gw.hubStatus())[0]).toMatchObject({ reachable: true });
  });
});
