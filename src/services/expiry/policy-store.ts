// ExpiryPolicy resources on the state hub: listing for the rules, and CRUD for the API.
import { Conflict, Invalid, type FieldIssue } from '../../hive/errors.js';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import { expiryPolicyIssues, type ExpiryPolicySpec, type NamedPolicy } from '../../hive/expiry/index.js';
import {
  ExpiryPolicySpecSchema,
  type ExpiryPolicyStatus,
  type ExpiryPolicyView,
} from '../../hive/resources/expiry-policy.js';
import { markAnnotations, type IdempotencyMark } from '../idempotency/mark.js';
import type { KubeObject } from '../ports.js';
import { checkName, nameIssues } from '../schedules/schedule-resource.js';
import type { ExpiryServiceDeps } from './deps.js';
import type { Caller } from '../../auth/caller.js';
import {
  creationTeam,
  notFound,
  ownerLabels,
  ownerTeam,
  replacementTeam,
  requireRole,
  sees,
  visibleOr,
  OWNER_TEAM_LABEL,
} from '../team-scope.js';

export interface ExpiryPolicy extends KubeObject {
  spec: ExpiryPolicySpec;
  status?: ExpiryPolicyStatus;
}

const ALLOWED = new Set(Object.keys(ExpiryPolicySpecSchema.properties));

export function listPolicies(deps: Pick<ExpiryServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>): NamedPolicy[] {
  return deps.store
    .cachedList<ExpiryPolicy>('ExpiryPolicy', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((p) => {
      const team = ownerTeam(p.object);
      return { name: p.object.metadata.name, spec: p.object.spec ?? {}, ...(team ? { team } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function policySpecOf(body: Record<string, unknown>, more: FieldIssue[] = []): ExpiryPolicySpec {
  const { name: _name, team: _team, ...spec } = body;
  const issues = [...more];
  issues.push(
    ...Object.keys(spec)
      .filter((k) => !ALLOWED.has(k))
      .map((field) => ({ field, reason: 'unknown field' })),
  );
  issues.push(...expiryPolicyIssues(spec));
  if (issues.length > 0) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
  return spec;
}

export function createPolicyStore(deps: ExpiryServiceDeps) {
  const ref = (name: string) => ({ hub: deps.stateHub, namespace: deps.stateNamespace, name: checkName(name) });
  /** As the caller may see it: another team's answers as a missing one; `needed` in its team, else Forbidden. */
  const fetch = async (name: string, caller: Caller, needed?: { role: 'admin'; doing: string }) => {
    const p = await deps.store.get<ExpiryPolicy>('ExpiryPolicy', ref(name));
    const seen = visibleOr(caller, p ?? undefined, notFound(`expiry policy ${name}`));
    if (needed) requireRole(caller, ownerTeam(seen), needed.role, needed.doing);
    return seen;
  };
  const view = (p: ExpiryPolicy): ExpiryPolicyView => ({
    name: p.metadata.name,
    ...(ownerTeam(p) ? { team: ownerTeam(p) } : {}),
    spec: p.spec,
    status: p.status ?? {},
    ...(p.metadata.creationTimestamp ? { createdAt: p.metadata.creationTimestamp } : {}),
  });
  return {
    /** The policies the caller sees: its teams' (platform admins: all). */
    list: (caller: Caller) =>
      deps.store
        .cachedList<ExpiryPolicy>('ExpiryPolicy', { hub: deps.stateHub, namespace: deps.stateNamespace })
        .filter((p) => sees(caller, ownerTeam(p.object)))
        .map((p) => view(p.object)),
    get: async (name: string, caller: Caller) => view(await fetch(name, caller)),
    /**
     * `body.team`: the owning team; the policy then covers that team's clusters only. `mark`: the request's
     * Idempotency-Key, recorded on the policy.
     */
    async create(body: Record<string, unknown>, caller: Caller, mark?: IdempotencyMark) {
      const spec = policySpecOf(body, nameIssues(body.name));
      const name = body.name as string;
      const team = creationTeam(caller, body.team as string | undefined, 'admin', 'creating an expiry policy');
      if (await deps.store.get('ExpiryPolicy', ref(name)))
        throw new Conflict(`expiry policy ${name} already exists; use PUT to change it`);
      const metadata = {
        name,
        namespace: deps.stateNamespace,
        ...(team ? { labels: ownerLabels(team) } : {}),
        ...(mark ? { annotations: markAnnotations(mark) } : {}),
      };
      const p = await deps.store.create<ExpiryPolicy>('ExpiryPolicy', deps.stateHub, {
        apiVersion: BEEKEEPER_API_VERSION,
        kind: 'ExpiryPolicy',
        metadata,
        spec,
      });
      deps.log.info({ policy: name, team }, 'expiry policy created');
      return view(p);
    },
    /** The owning team stays unless a platform admin names another (`body.team`). */
    async replace(name: string, body: Record<string, unknown>, caller: Caller) {
      // The body may repeat the path's name; another name was ignored and the policy in the path replaced.
      const renamed =
        body.name !== undefined && body.name !== name
          ? [{ field: 'name', reason: `must be the name in the path (${name}) or left out` }]
          : [];
      const spec = policySpecOf(body, renamed);
      const existing = await fetch(name, caller, { role: 'admin', doing: 'replacing an expiry policy' });
      const team = replacementTeam(caller, ownerTeam(existing), body.team as string | undefined);
      const { [OWNER_TEAM_LABEL]: _old, ...labels } = existing.metadata.labels ?? {};
      const p = await deps.store.replace<ExpiryPolicy>('ExpiryPolicy', ref(name), {
        ...existing,
        metadata: { ...existing.metadata, labels: { ...labels, ...ownerLabels(team) } },
        spec,
      });
      deps.log.info({ policy: name, team }, 'expiry policy replaced');
      return view(p);
    },
    async remove(name: string, caller: Caller) {
      await fetch(name, caller, { role: 'admin', doing: 'deleting an expiry policy' });
      await deps.store.delete('ExpiryPolicy', ref(name));
      deps.log.info({ policy: name }, 'expiry policy deleted');
    },
  };
}

/** The policies in force: dry-run policies are shown but never applied or enforced. */
export function enforcedPolicies(
  deps: Pick<ExpiryServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
): NamedPolicy[] {
  return listPolicies(deps).filter((p) => !p.spec.dryRun);
}
