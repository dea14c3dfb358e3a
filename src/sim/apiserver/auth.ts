// Bearer-token authentication and a small RBAC authorizer. A wrong token is 401 (golden 89); no token at all is
// system:anonymous, which RBAC then refuses with 403 (golden 90). system:masters bypasses RBAC as upstream.
import type { Identity } from './types.js';
import type { Store } from './store.js';
import { unauthorized } from './status.js';
import { API_AUDIENCES, type ServiceAccountTokens } from './sa-tokens.js';

export interface AuthRequest {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Set for a non-resource URL (then group and resource are empty). */
  path?: string;
}

/** Who a bearer token is: a static token, else a ServiceAccount token issued for the API server's audiences. */
export function lookupToken(
  tokens: Map<string, Identity>,
  saTokens: ServiceAccountTokens,
  token: string,
  audiences: readonly string[] = API_AUDIENCES,
): { who: Identity; audiences: string[] } | { error: string } {
  const known = tokens.get(token);
  if (known) return { who: known, audiences: [...audiences] };
  const checked = saTokens.check(token);
  if (!checked) return { error: 'invalid bearer token' };
  if ('error' in checked) return checked;
  const granted = checked.audiences.filter((a) => audiences.includes(a));
  if (granted.length === 0) return { error: 'invalid bearer token, token audiences is invalid' };
  return { who: checked.identity, audiences: granted };
}

export function createAuthenticator(tokens: Map<string, Identity>, saTokens: ServiceAccountTokens) {
  return (authorization: string | undefined): Identity => {
    if (!authorization) return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    const found = m ? lookupToken(tokens, saTokens, m[1]!.trim()) : undefined;
    if (!found || 'error' in found) throw unauthorized();
    const who = found.who;
    return { username: who.username, groups: [...new Set([...who.groups, 'system:authenticated'])] };
  };
}

const RBAC = 'rbac.authorization.k8s.io';

function ruleAllows(rule: any, req: AuthRequest): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  if (req.path !== undefined) {
    const path = req.path;
    return (
      has(rule.verbs, req.verb) &&
      (rule.nonResourceURLs ?? []).some(
        (u: string) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
      )
    );
  }
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  if (!has(rule.verbs, req.verb)) return false;
  if (!has(rule.apiGroups, req.group)) return false;
  const resources: string[] = rule.resources ?? [];
  const resOk =
    resources.includes('*') ||
    resources.includes(resource) ||
    (req.subresource !== undefined && resources.includes(`*/${req.subresource}`));
  if (!resOk) return false;
  if (rule.resourceNames?.length) return req.name !== undefined && rule.resourceNames.includes(req.name);
  return true;
}

function subjectMatches(s: any, who: Identity, bindingNamespace?: string): boolean {
  if (s.kind === 'User') return s.name === who.username;
  if (s.kind === 'Group') return who.groups.includes(s.name);
  if (s.kind === 'ServiceAccount')
    return who.username === `system:serviceaccount:${s.namespace ?? bindingNamespace}:${s.name}`;
  return false;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

const describeSubject = (s: any, bindingNamespace: string) =>
  s.kind === 'ServiceAccount'
    ? `ServiceAccount "${s.name}/${s.namespace || bindingNamespace}"`
    : `${s.kind} "${s.name}"`;

/**
 * The authorizer chain of kube-apiserver in small: system:masters is allowed by the privileged-group authorizer
 * (no reason), every authenticated user may create self access reviews (bootstrap ClusterRole system:basic-user),
 * then RBAC, whose reason names the granting binding as plugin/auth/authorizer/rbac does.
 */
export function decide(store: Store, who: Identity, req: AuthRequest): Decision {
  if (who.groups.includes('system:masters')) return { allowed: true, reason: '' };
  if (
    req.group === 'authorization.k8s.io' &&
    req.verb === 'create' &&
    who.groups.includes('system:authenticated') &&
    (req.resource === 'selfsubjectaccessreviews' || req.resource === 'selfsubjectrulesreviews')
  ) {
    return {
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    };
  }
  if (req.path !== undefined && req.verb === 'get') {
    const under = (paths: string[]) => paths.some((p) => req.path === p || req.path!.startsWith(`${p}/`));
    if (under(['/healthz', '/livez', '/readyz', '/version'])) {
      return {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:authenticated"',
      };
    }
    if (under(['/api', '/apis', '/openapi']) && who.groups.includes('system:authenticated')) {
      return {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
      };
    }
  }
  const roleRules = (ref: any, ns?: string): any[] => {
    const rec =
      ref.kind === 'ClusterRole'
        ? store.get(`${RBAC}/clusterroles`, ref.name)
        : store.get(`${RBAC}/roles`, `${ns}/${ref.name}`);
    return rec?.obj.rules ?? [];
  };
  for (const { obj } of store.table(`${RBAC}/clusterrolebindings`).records.values()) {
    const subject = (obj.subjects ?? []).find((s: any) => subjectMatches(s, who));
    if (subject && roleRules(obj.roleRef).some((r) => ruleAllows(r, req))) {
      return {
        allowed: true,
        reason: `RBAC: allowed by ClusterRoleBinding "${obj.metadata.name}" of ${obj.roleRef.kind} "${obj.roleRef.name}" to ${describeSubject(subject, '')}`,
      };
    }
  }
  if (req.namespace) {
    const prefix = `${req.namespace}/`;
    for (const [key, { obj }] of store.table(`${RBAC}/rolebindings`).records) {
      if (!key.startsWith(prefix)) continue;
      const subject = (obj.subjects ?? []).find((s: any) => subjectMatches(s, who, req.namespace));
      if (subject && roleRules(obj.roleRef, req.namespace).some((r) => ruleAllows(r, req))) {
        return {
          allowed: true,
          reason:
            `RBAC: allowed by RoleBinding "${obj.metadata.name}/${req.namespace}" of ${obj.roleRef.kind} ` +
            `"${obj.roleRef.name}" to ${describeSubject(subject, req.namespace)}`,
        };
      }
    }
  }
  return { allowed: false, reason: '' };
}

/** Returns undefined when allowed, or the RBAC refusal text used in the Forbidden message (goldens 90-93). */
export function authorize(store: Store, who: Identity, req: AuthRequest): string | undefined {
  if (decide(store, who, req).allowed) return undefined;
  const resource = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const scope = req.namespace ? `in the namespace "${req.namespace}"` : 'at the cluster scope';
  return `User "${who.username}" cannot ${req.verb} resource "${resource}" in API group "${req.group}" ${scope}`;
}
