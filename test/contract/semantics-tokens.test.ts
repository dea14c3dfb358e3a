// ServiceAccount tokens from the TokenRequest API (`kubectl create token`), which is how the contract suite acts
// as an identity other than the kubeconfig's on any server: the token authenticates as the ServiceAccount.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { kubeHttp, type KubeHttp } from './support/kube-http.js';

describeTargets('ServiceAccount tokens on %s', (targetName) => {
  let t: Target;
  let http: KubeHttp;
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await http.call({ method, path, body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : 'application/json', auth: token ? { token } : 'admin' });
    return { code: res.status, body: JSON.parse(res.text) as any };
  };
  beforeAll(async () => {
    t = await startTarget(targetName);
    http = kubeHttp(t.kc);
  });
  afterAll(async () => { await t?.close(); });

  it('issues a token that authenticates as the ServiceAccount, whom RBAC then judges', async () => {
    await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts`, { metadata: { name: 'bot' } });
    const issued = await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts/bot/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    expect(issued.code).toBe(201);
    expect(issued.body).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { expirationSeconds: 3600 } });
    expect(issued.body.status.token).toMatch(/^\S{16,}$/);
    const denied = await call('GET', `/apis/hive.openshift.io/v1/namespaces/${t.namespace}/clusterdeployments`, undefined, issued.body.status.token);
    expect([denied.code, denied.body.message]).toEqual([403, `clusterdeployments.hive.openshift.io is forbidden: User "system:serviceaccount:${t.namespace}:bot" ` +
      `cannot list resource "clusterdeployments" in API group "hive.openshift.io" in the namespace "${t.namespace}"`]);
  });

  it('refuses a token for a ServiceAccount that does not exist', async () => {
    const missing = await call('POST', `/api/v1/namespaces/${t.namespace}/serviceaccounts/nobody/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    expect([missing.code, missing.body.reason, missing.body.message]).toEqual([404, 'NotFound', 'serviceaccounts "nobody" not found']);
  });
});
