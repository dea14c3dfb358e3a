// Bearer-token authentication and a small RBAC authorizer. A wrong token is 401 (golden 89); no token at all is
// system:anonymous, which RBAC then refuses with 403 (golden 90). system:masters bypasses RBAC as upstream.
import type { Identity } from './types.js';
import type { Store } from './store.js';
import { unauthorized } from './status.js';

export interface AuthRequest { verb: string; group: string; resource: string; subresource?: string; namespace?: string; name?: string }

export function createAuthenticator(tokens: Map<string, Identity>) {
  return (authorization: string | undefined): Identity => {
    if (!authorization) return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    const who = m ? tokens.get(m[1]!.trim()) : undefined;
    if (!who) throw unauthorized();
    return { username: who.username, groups: [...new Set([...who.groups, 'system:authenticated'])] };
  };
}

const RBAC = 'rbac.authorization.k8s.io';

function ruleAllows(rule: any, req: AuthRequest): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  if (!has(rule.verbs, req.verb)) return false;
  if (!has(rule.apiGroups, req.group)) return false;
  const resources: string[] = rule.resources ?? [];
  const resOk = resources.includes('*') || resources.includes(resource) || (req.subresource !== undefined && resources.includes(`*/${req.subresource}`));
  if (!resOk) return false;
  if (rule.resourceNames?.length) return req.name !== undefined && rule.resourceNames.includes(req.name);
  return true;
}

function subjectMatches(s: any, who: Identity, bindingNamespace?: string): boolean {
  if (s.kind === 'User') return s.name === who.username;
  if (s.kind === 'Group') return who.groups.includes(s.name);
  if (s.kind === 'ServiceAccount') return who.username === `system:serviceaccount:${s.namespace ?? bindingNamespace}:${s.name}`;
  return false;
}

/** Returns undefined when allowed, or the RBAC refusal text used in the Forbidden message (goldens 90-93). */
export function authorize(store: Store, who: Identity, req: AuthRequest): string | undefined {
  if (who.groups.includes('system:masters')) return undefined;
  const roleRules = (ref: any, ns?: string): any[] => {
    const rec = ref.kind === 'ClusterRole' ? store.get(`${RBAC}/clusterroles`, ref.name) : store.get(`${RBAC}/roles`, `${ns}/${ref.name}`);
    return rec?.obj.rules ?? [];
  };
  for (const { obj } of store.table(`${RBAC}/clusterrolebindings`).records.values()) {
    if ((obj.subjects ?? []).some((s: any) => subjectMatches(s, who))) {
      if (roleRules(obj.roleRef).some((r) => ruleAllows(r, req))) return undefined;
    }
  }
  if (req.namespace) {
    const prefix = `${req.namespace}/`;
    for (const [key, { obj }] of store.table(`${RBAC}/rolebindings`).records) {
      if (!key.startsWith(prefix)) continue;
      if ((obj.subjects ?? []).some((s: any) => subjectMatches(s, who, req.namespace))) {
        if (roleRules(obj.roleRef, req.namespace).some((r) => ruleAllows(r, req))) return undefined;
      }
    }
  }
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const scope = req.namespace ? `in the namespace "${req.namespace}"` : 'at the cluster scope';
  return `User "${who.username}" cannot ${req.verb} resource "${resource}" in API group "${req.group}" ${scope}`;
}
