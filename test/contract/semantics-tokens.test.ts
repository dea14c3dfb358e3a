// ServiceAccount tokens from the TokenRequest API (`kubectl create token`), which is how the contract suite acts
// as an identity other than the kubeconfig's on any server: the token authenticates as the ServiceAccount.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { kubeHttp, type KubeHttp } from './support/kube-http.js';
import { eventually } from './support/k8s.js';

describeTargets('ServiceAccount tokens on %s', (targetName) => {
  let t: Target;
  let http: KubeHttp;
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await http.call({
      method,
      path,
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : 'application/json',
      auth: token ? { token } : 'admin',
    });
    return { code: res.status, body: JSON.parse(res.text) };
  };
  beforeAll(async () => {
    t = await startTarget(targetName);
    http = kubeHttp(t.kc);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('issues a token that authenticates as the ServiceAccount, whom RBAC then judges', async () => {
    await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts`, { metadata: { name: 'bot' } });
    const issued = await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts/bot/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    });
    expect(issued.code).toBe(201);
    expect(issued.body).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      spec: { expirationSeconds: 3600 },
    });
    expect(issued.body.status.token).toMatch(/^\S{16,}$/);
    const denied = await call(
      'GET',
      `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`,
      undefined,
      issued.body.status.token,
    );
    expect([denied.code, denied.body.message]).toEqual([
      403,
      `clusterdeployments.hive.openshift.io is forbidden: User "system:serviceaccount:${t.namespace}:bot" ` +
        `cannot list resource "clusterdeployments" in API group "hive.openshift.io" in the namespace "${t.namespace}"`,
    ]);
  });

  it('refuses a token for a ServiceAccount that does not exist', async () => {
    const missing = await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts/nobody/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    expect([missing.code, missing.body.reason, missing.body.message]).toEqual([
      404,
      'NotFound',
      'serviceaccounts "nobody" not found',
    ]);
  });

  it("authorizes the token's identity through Roles and RoleBindings, and refuses a token it does not know with 401", async () => {
    await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts`, { metadata: { name: 'reader' } });
    const token = (
      await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts/reader/token`, {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {},
      })
    ).body.status.token;
    const cds = `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`;
    expect((await call('GET', cds, undefined, token)).code).toBe(403);
    await call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${t.namespace}/roles`, {
      metadata: { name: 'cd-reader' },
      rules: [{ apiGroups: ['hive.openshift.io'], resources: ['clusterdeployments'], verbs: ['get', 'list'] }],
    });
    // Bound to the group every ServiceAccount of the namespace is in.
    await call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${t.namespace}/rolebindings`, {
      metadata: { name: 'readers' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cd-reader' },
      subjects: [{ kind: 'Group', name: `system:serviceaccounts:${t.namespace}` }],
    });
    await eventually(async () => (await call('GET', cds, undefined, token)).code === 200);
    const patch = await http.call({
      method: 'PATCH',
      path: `${cds}/nope/status`,
      body: '{"status":{}}',
      contentType: 'application/merge-patch+json',
      auth: { token },
    });
    expect([patch.status, JSON.parse(patch.text).message]).toEqual([
      403,
      `clusterdeployments.hive.openshift.io "nope" is forbidden: User "system:serviceaccount:${t.namespace}:reader" ` +
        `cannot patch resource "clusterdeployments/status" in API group "hive.openshift.io" in the namespace "${t.namespace}"`,
    ]);
    const wrong = await call('GET', cds, undefined, 'not-a-token-anyone-issued');
    expect([wrong.code, wrong.body.reason]).toEqual([401, 'Unauthorized']);
  });
});
