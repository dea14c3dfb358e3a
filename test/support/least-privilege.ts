// Beekeeper on a simulated hub as the shipped RBAC makes it: the committed deploy/base/rbac.yaml (the state hub) or
// deploy/hub-access/rbac.yaml (a remote hub) applied by the admin, a token issued to the ServiceAccount by
// TokenRequest (what `kubectl create token` sends), and a kubeconfig with that token. The simulator then enforces
// exactly those roles for every request Beekeeper makes, and for what Hive does with the kubeconfig a relocation
// hands it; test/support/least-privilege.ts's refusals() lists what it refused.
import { readFileSync } from 'node:fs';
import { parseAllDocuments, stringify } from 'yaml';
import type { SimulatorHub } from '../../src/sim/simulator.js';

const root = new URL('../../', import.meta.url);
const FILES = { state: 'deploy/base/rbac.yaml', 'hub-access': 'deploy/hub-access/rbac.yaml' } as const;
/** Ten years: tests move the clock by days, and a restricted identity must not expire under them. */
const TOKEN_SECONDS = 10 * 365 * 86_400;

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown };

const COLLECTIONS: Record<string, { path: string; namespaced: boolean }> = {
  Namespace: { path: '/api/v1/namespaces', namespaced: false },
  ServiceAccount: { path: '/api/v1/serviceaccounts', namespaced: true },
  Secret: { path: '/api/v1/secrets', namespaced: true },
  ClusterRole: { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', namespaced: false },
  ClusterRoleBinding: { path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', namespaced: false },
  Role: { path: '/apis/rbac.authorization.k8s.io/v1/roles', namespaced: true },
  RoleBinding: { path: '/apis/rbac.authorization.k8s.io/v1/rolebindings', namespaced: true },
};

/** `/api/v1/namespaces/ns/serviceaccounts` from `/api/v1/serviceaccounts`. */
const collectionPath = (kind: string, namespace?: string) => {
  const c = COLLECTIONS[kind];
  if (!c) throw new Error(`no collection for ${kind}`);
  if (!c.namespaced) return c.path;
  const i = c.path.lastIndexOf('/');
  return `${c.path.slice(0, i)}/namespaces/${namespace}${c.path.slice(i)}`;
};

export async function asAdmin(hub: SimulatorHub, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The RBAC objects of a committed file; deploy/base's namespaced ones are put in `namespace` as kustomize does. */
export function rbacObjects(file: keyof typeof FILES, namespace: string): Obj[] {
  const text = readFileSync(new URL(FILES[file], root), 'utf8');
  return parseAllDocuments(text).map((d) => {
    const obj = d.toJSON() as Obj;
    if (file === 'state') {
      if (COLLECTIONS[obj.kind]?.namespaced) obj.metadata.namespace = namespace;
      for (const s of (obj.subjects as Array<{ namespace?: string }> | undefined) ?? []) s.namespace = namespace;
    }
    return obj;
  });
}

export interface RestrictedIdentity {
  /** The ServiceAccount's user name, as the API server sees it. */
  user: string;
  /** A kubeconfig for the hub with the ServiceAccount's token. */
  kubeconfigData: string;
}

/** Applies the file's RBAC objects as the admin and returns Beekeeper's identity and kubeconfig on that hub. */
export async function grantLeastPrivilege(
  hub: SimulatorHub,
  file: keyof typeof FILES,
  stateNamespace: string,
): Promise<RestrictedIdentity> {
  const objects = rbacObjects(file, stateNamespace);
  for (const obj of objects) {
    const res = await asAdmin(hub, 'POST', collectionPath(obj.kind, obj.metadata.namespace), obj);
    if (res.status !== 201 && !(res.status === 409 && obj.kind === 'Namespace'))
      throw new Error(`apply ${obj.kind} ${obj.metadata.name}: ${res.status} ${await res.text()}`);
  }
  const sa = objects.find((o) => o.kind === 'ServiceAccount')!;
  const { namespace, name } = sa.metadata as { namespace: string; name: string };
  const res = await asAdmin(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: TOKEN_SECONDS },
  });
  if (res.status !== 201) throw new Error(`TokenRequest: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { status: { token: string } }).status.token;
  return {
    user: `system:serviceaccount:${namespace}:${name}`,
    kubeconfigData: stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: hub.name, cluster: { server: hub.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'beekeeper', user: { token } }],
      contexts: [{ name: hub.name, context: { cluster: hub.name, user: 'beekeeper' } }],
      'current-context': hub.name,
    }),
  };
}

/** What the hubs' RBAC refused to these users, as "hub: User ... cannot ..." lines. */
export function refusals(hubs: readonly SimulatorHub[], users: readonly string[]): string[] {
  return hubs.flatMap((h) =>
    h.server
      .refusals()
      .filter((r) => users.includes(r.user))
      .map((r) => `${h.name}: ${r.message}`),
  );
}
