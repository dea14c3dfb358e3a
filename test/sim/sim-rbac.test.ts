// The double's RBAC authorizer against upstream's rules (plugin/pkg/auth/authorizer/rbac, rbac/v1 helpers): verbs,
// API groups, resources with their subresources and `*/subresource`, resourceNames, a RoleBinding to a ClusterRole
// granting in its namespace only, cluster-scoped kinds never granted by a RoleBinding, and the Namespace authorized
// in itself. The least-privilege run (test/deploy) relies on each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CDS = (ns: string) => `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments`;
let server: ApiServer;

const call = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const admin = (method: string, path: string, body?: unknown) => call(server.token, method, path, body);
const as = async (user: string, method: string, path: string, body?: unknown) =>
  (await call(user, method, path, body)).status;

async function grant(user: string, rules: unknown[], binding?: { namespace: string }) {
  await admin('POST', `${RBAC}/clusterroles`, { metadata: { name: user }, rules });
  const subjects = [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }];
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: user };
  const res = binding
    ? await admin('POST', `${RBAC}/namespaces/${binding.namespace}/rolebindings`, {
        metadata: { name: user },
        roleRef,
        subjects,
      })
    : await admin('POST', `${RBAC}/clusterrolebindings`, { metadata: { name: user }, roleRef, subjects });
  expect(res.status).toBe(201);
}

const cd = (ns: string, name: string) => ({
  apiVersion: 'hive.openshift.io/v1',
  kind: 'ClusterDeployment',
  metadata: { name, namespace: ns },
  spec: {
    baseDomain: 'example.com',
    clusterName: name,
    platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'c' } } },
    provisioning: { installConfigSecretRef: { name: 'i' }, imageSetRef: { name: 'x' } },
    pullSecretRef: { name: 'p' },
  },
});

beforeAll(async () => {
  const users = ['status-only', 'any-status', 'named', 'in-team', 'wild', 'other-group', 'ns-reader'];
  server = await startApiServer({ crds: hiveCrds(), users: users.map((u) => ({ token: u, username: u })) });
  for (const ns of ['team', 'other']) {
    await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } });
    for (const n of ['a', 'b']) expect((await admin('POST', CDS(ns), cd(ns, n))).status).toBe(201);
  }
  const hive = ['hive.openshift.io'];
  await grant('status-only', [{ apiGroups: hive, resources: ['clusterdeployments/status'], verbs: ['patch'] }]);
  await grant('any-status', [{ apiGroups: hive, resources: ['*/status'], verbs: ['patch'] }]);
  await grant('named', [{ apiGroups: hive, resources: ['clusterdeployments'], resourceNames: ['a'], verbs: ['get'] }]);
  await grant(
    'in-team',
    [{ apiGroups: hive, resources: ['clusterdeployments', 'clusterimagesets'], verbs: ['get', 'list'] }],
    { namespace: 'team' },
  );
  await grant('wild', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
  await grant('other-group', [{ apiGroups: ['beekeeper.io'], resources: ['clusterdeployments'], verbs: ['get'] }]);
  await grant('ns-reader', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }], { namespace: 'team' });
});

afterAll(async () => {
  await server?.close();
});

describe("the double's RBAC authorizer", () => {
  it('keeps a resource and its subresources apart, and matches */status', async () => {
    const patch = { status: { powerState: 'Running' } };
    expect(await as('status-only', 'PATCH', `${CDS('team')}/a/status`, patch)).toBe(200);
    expect(await as('status-only', 'PATCH', `${CDS('team')}/a`, { metadata: { labels: { x: 'y' } } })).toBe(403);
    expect(await as('status-only', 'GET', `${CDS('team')}/a/status`)).toBe(403);
    expect(await as('any-status', 'PATCH', `${CDS('other')}/b/status`, patch)).toBe(200);
    expect(await as('any-status', 'GET', `${CDS('other')}/b`)).toBe(403);
  });

  it('limits a rule with resourceNames to those names, and never to a list', async () => {
    expect(await as('named', 'GET', `${CDS('team')}/a`)).toBe(200);
    expect(await as('named', 'GET', `${CDS('team')}/b`)).toBe(403);
    expect(await as('named', 'GET', CDS('team'))).toBe(403);
  });

  it('grants through a RoleBinding in its namespace only, and nothing cluster-scoped or across namespaces', async () => {
    expect(await as('in-team', 'GET', CDS('team'))).toBe(200);
    expect(await as('in-team', 'GET', `${CDS('team')}/a`)).toBe(200);
    expect(await as('in-team', 'GET', CDS('other'))).toBe(403);
    expect(await as('in-team', 'GET', '/apis/hive.openshift.io/v1/clusterdeployments')).toBe(403);
    expect(await as('in-team', 'GET', '/apis/hive.openshift.io/v1/clusterimagesets')).toBe(403);
  });

  it('matches the API group and the * wildcards', async () => {
    expect(await as('other-group', 'GET', `${CDS('team')}/a`)).toBe(403);
    expect(await as('wild', 'GET', '/apis/hive.openshift.io/v1/clusterdeployments')).toBe(200);
    expect(await as('wild', 'DELETE', `${CDS('other')}/b`)).toBe(200);
  });

  it('authorizes a Namespace in itself', async () => {
    expect(await as('ns-reader', 'GET', '/api/v1/namespaces/team')).toBe(200);
    expect(await as('ns-reader', 'GET', '/api/v1/namespaces/other')).toBe(403);
    expect(await as('ns-reader', 'GET', '/api/v1/namespaces')).toBe(403);
    const refused = await call('ns-reader', 'GET', '/api/v1/namespaces/other');
    expect(((await refused.json()) as { message: string }).message).toBe(
      'namespaces "other" is forbidden: User "ns-reader" cannot get resource "namespaces" in API group "" in the namespace "other"',
    );
  });
});
