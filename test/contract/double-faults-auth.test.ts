// Behaviour only the double has, which no client of a real API server can drive: fault injection (options, method
// and admin endpoint), static identities given at start, and validating admission hooks passed in code. Everything
// else the contract suite checks runs on every target (support/target.ts), a real server included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig, RbacAuthorizationV1Api, Watch } from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { HIVE, cd, customObjects, eventually, failure, mergePatch } from './support/k8s.js';

function kubeconfigFor(server: ApiServer, token: string): KubeConfig {
  const doc = server.kubeconfig('x') as any;
  doc.users[0].user.token = token;
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(doc));
  return kc;
}

describe('the double', () => {
  let server: ApiServer;
  let api: ReturnType<typeof customObjects>;
  const g = { ...HIVE, namespace: 'default' };
  beforeAll(async () => {
    server = await startApiServer({
      crds: hiveCrds(),
      users: [{ token: 'dev-token', username: 'dev', groups: ['developers'] }],
      admission: [
        (req) =>
          req.operation === 'DELETE' && req.oldObject?.metadata?.annotations?.['example.com/keep'] === 'true'
            ? {
                allowed: false,
                status: {
                  kind: 'Status',
                  apiVersion: 'v1',
                  metadata: {},
                  status: 'Failure',
                  message: 'kept by policy',
                  reason: 'Invalid',
                  code: 422,
                },
              }
            : { allowed: true },
      ],
    });
    const kc = new KubeConfig();
    kc.loadFromString(JSON.stringify(server.kubeconfig('admin')));
    api = customObjects(kc);
    await api.createNamespacedCustomObject({ ...g, body: cd('target', 'default') });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('injects 429 with Retry-After for a matching verb and resource only', async () => {
    server.faults.set({
      errors: [{ verb: 'get', resource: 'clusterdeployments', rate: 1, code: 429, retryAfterSeconds: 7 }],
    });
    const limited = await failure(api.getNamespacedCustomObject({ ...g, name: 'target' }));
    expect([
      limited.code,
      limited.status.reason,
      limited.status.details.retryAfterSeconds,
      limited.headers['retry-after'],
    ]).toEqual([429, 'TooManyRequests', 7, '7']);
    await expect(api.listNamespacedCustomObject({ ...g })).resolves.toBeTruthy();
    server.faults.clear();
    await expect(api.getNamespacedCustomObject({ ...g, name: 'target' })).resolves.toBeTruthy();
  });

  it('injects 500 and 503 Status answers', async () => {
    server.faults.set({ errors: [{ verb: 'list', rate: 1, code: 503 }] });
    expect((await failure(api.listNamespacedCustomObject({ ...g }))).status.reason).toBe('ServiceUnavailable');
    server.faults.set({ errors: [{ verb: 'list', rate: 1, code: 500 }] });
    expect((await failure(api.listNamespacedCustomObject({ ...g }))).status.reason).toBe('InternalError');
    server.faults.clear();
  });

  it('forces the next N updates of a resource to conflict', async () => {
    server.faults.set({ conflicts: [{ resource: 'clusterdeployments', count: 2 }] });
    const patch = () =>
      api.patchNamespacedCustomObject({ ...g, name: 'target', body: { metadata: { labels: { n: '1' } } } }, mergePatch);
    expect((await failure(patch())).status.reason).toBe('Conflict');
    expect((await failure(patch())).status.reason).toBe('Conflict');
    await expect(patch()).resolves.toBeTruthy();
    expect(server.faults.get().conflicts?.[0]?.count).toBe(0);
    server.faults.clear();
  });

  it("makes a share of a resource's updates conflict while the rule stands, and refuses a rule with neither count nor rate", async () => {
    const patch = () =>
      api.patchNamespacedCustomObject({ ...g, name: 'target', body: { metadata: { labels: { n: '2' } } } }, mergePatch);
    server.faults.set({ conflicts: [{ resource: 'clusterdeployments', rate: 1 }] });
    for (let i = 0; i < 3; i++) expect((await failure(patch())).status.reason).toBe('Conflict');
    server.faults.set({ conflicts: [{ resource: 'clusterdeployments', rate: 0 }] });
    await expect(patch()).resolves.toBeTruthy();
    expect(() => server.faults.set({ conflicts: [{ resource: 'clusterdeployments' }] })).toThrow(
      'conflicts[] needs resource and either count or rate',
    );
    server.faults.clear();
  });

  it('drops watch streams after the configured time', async () => {
    server.faults.set({ watchDrops: { afterMs: 50 } });
    const kc = new KubeConfig();
    kc.loadFromString(JSON.stringify(server.kubeconfig('admin')));
    let ended = false;
    await new Watch(kc).watch(
      '/apis/hive.openshift.io/v1/namespaces/default/clusterdeployments',
      {},
      () => undefined,
      () => {
        ended = true;
      },
    );
    await eventually(async () => ended, 5000);
    server.faults.clear();
  });

  it('adds latency to matching requests', async () => {
    server.faults.set({ latency: [{ verb: 'get', ms: 150 }] });
    const start = performance.now();
    await api.getNamespacedCustomObject({ ...g, name: 'target' });
    const took = performance.now() - start;
    server.faults.clear();
    expect(took).toBeGreaterThanOrEqual(140);
  });

  it('serves the fault switchboard at /_sim/faults for the admin token only', async () => {
    const put = await fetch(`${server.url}/_sim/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ errors: [{ verb: 'create', rate: 1, code: 503 }] }),
    });
    expect(put.status).toBe(200);
    expect(server.faults.get().errors?.[0]?.code).toBe(503);
    const get = await fetch(`${server.url}/_sim/faults`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(((await get.json()) as any).errors[0].verb).toBe('create');
    const bad = await fetch(`${server.url}/_sim/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}` },
      body: '{"errors":[{"rate":1,"code":418}]}',
    });
    expect(bad.status).toBe(400);
    expect(server.faults.get().errors?.[0]?.code).toBe(503); // a bad spec changes nothing
    expect((await fetch(`${server.url}/_sim/faults`, { headers: { authorization: 'Bearer dev-token' } })).status).toBe(
      403,
    );
    expect((await fetch(`${server.url}/_sim/faults`)).status).toBe(403);
    expect((await fetch(`${server.url}/_sim/faults`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    server.faults.clear();
  });

  it('authenticates the static identities it was started with, as their users and groups', async () => {
    const devApi = customObjects(kubeconfigFor(server, 'dev-token'));
    const denied = await failure(devApi.listNamespacedCustomObject({ ...g }));
    expect(denied.status.message).toBe(
      'clusterdeployments.hive.openshift.io is forbidden: User "dev" cannot list resource "clusterdeployments" in API group "hive.openshift.io" in the namespace "default"',
    );
    const rbac = kubeconfigFor(server, server.token).makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'default',
      body: {
        metadata: { name: 'cd-reader' },
        rules: [{ apiGroups: ['hive.openshift.io'], resources: ['clusterdeployments'], verbs: ['get', 'list'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'default',
      body: {
        metadata: { name: 'devs' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cd-reader' },
        subjects: [{ kind: 'Group', name: 'developers' }],
      },
    });
    await expect(devApi.listNamespacedCustomObject({ ...g })).resolves.toBeTruthy();
  });

  it('runs validating admission hooks and returns their Status', async () => {
    await api.patchNamespacedCustomObject(
      { ...g, name: 'target', body: { metadata: { annotations: { 'example.com/keep': 'true' } } } },
      mergePatch,
    );
    const refused = await failure(api.deleteNamespacedCustomObject({ ...g, name: 'target' }));
    expect([refused.code, refused.status.message]).toEqual([422, 'kept by policy']);
    await expect(api.getNamespacedCustomObject({ ...g, name: 'target' })).resolves.toBeTruthy();
  });
});
