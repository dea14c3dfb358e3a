// ExpiryPolicy resources on the state hub: listing for the rules, and CRUD for the API.
import { Conflict, Invalid, NotFound, type FieldIssue } from '../../hive/errors.js';
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

export interface ExpiryPolicy extends KubeObject {
  spec: ExpiryPolicySpec;
  status?: ExpiryPolicyStatus;
}

const ALLOWED = new Set(Object.keys(ExpiryPolicySpecSchema.properties));

export function listPolicies(deps: Pick<ExpiryServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>): NamedPolicy[] {
  return deps.store
    .cachedList<ExpiryPolicy>('ExpiryPolicy', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((p) => ({ name: p.object.metadata.name, spec: p.object.spec ?? {} }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function policySpecOf(body: Record<string, unknown>, more: FieldIssue[] = []): ExpiryPolicySpec {
  const { name: _name, ...spec } = body;
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
  const fetch = async (name: string) => {
    const p = await deps.store.get<ExpiryPolicy>('ExpiryPolicy', ref(name));
    if (!p) throw new NotFound(`expiry policy ${name} not found`);
    return p;
  };
  const view = (p: ExpiryPolicy): ExpiryPolicyView => ({
    name: p.metadata.name,
    spec: p.spec,
    status: p.status ?? {},
    ...(p.metadata.creationTimestamp ? { createdAt: p.metadata.creationTimestamp } : {}),
  });
  return {
    list: () =>
      deps.store
        .cachedList<ExpiryPolicy>('ExpiryPolicy', { hub: deps.stateHub, namespace: deps.stateNamespace })
        .map((p) => view(p.object)),
    get: async (name: string) => view(await fetch(name)),
    /** `mark`: the request's Idempotency-Key, recorded on the policy. */
    async create(body: Record<string, unknown>, mark?: IdempotencyMark) {
      const spec = policySpecOf(body, nameIssues(body.name));
      const name = body.name as string;
      if (await deps.store.get('ExpiryPolicy', ref(name)))
        throw new Conflict(`expiry policy ${name} already exists; use PUT to change it`);
      const metadata = {
        name,
        namespace: deps.stateNamespace,
        ...(mark ? { annotations: markAnnotations(mark) } : {}),
      };
      const p = await deps.store.create<ExpiryPolicy>('ExpiryPolicy', deps.stateHub, {
        apiVersion: 'beekeeper.io/v1alpha1',
        kind: 'ExpiryPolicy',
        metadata,
        spec,
      });
      deps.log.info({ policy: name }, 'expiry policy created');
      return view(p);
    },
    async replace(name: string, body: Record<string, unknown>) {
      // The body may repeat the path's name; another name was ignored and the policy in the path replaced.
      const renamed =
        body.name !== undefined && body.name !== name
          ? [{ field: 'name', reason: `must be the name in the path (${name}) or left out` }]
          : [];
      const spec = policySpecOf(body, renamed);
      const existing = await fetch(name);
      const p = await deps.store.replace<ExpiryPolicy>('ExpiryPolicy', ref(name), { ...existing, spec });
      deps.log.info({ policy: name }, 'expiry policy replaced');
      return view(p);
    },
    async remove(name: string) {
      await fetch(name);
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
