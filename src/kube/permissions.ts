// Every Kubernetes request Beekeeper makes, as RBAC: the one table deploy/base/rbac.yaml (the state hub) and
// deploy/hub-access/ (any other hub) are generated from (`npm run generate`, scripts/rbac-files.ts), and
// docs/hub-access.md mirrors. test/deploy/least-privilege.test.ts runs the flows with the simulator enforcing the
// generated roles for Beekeeper's identity, so a request added here-less fails there with a 403.
//
// Discovery (GET /apis/hive.openshift.io/v1 for /v1/hubs) needs no rule: system:discovery grants it to every
// authenticated user. Roles and RoleBindings are not here: Hive's ClusterClaim controller makes the claim's
// RoleBinding (REFERENCE.md §5), Beekeeper never does. CRDs are not here either: `kubectl apply -f deploy/crds/` is an
// install step, and only the embedded simulator registers them at run time.
import type { KindName } from '../services/ports.js';
import { KINDS } from './kinds.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/**
 * Where a grant applies. `every-hub`: ClusterRole `beekeeper-hub`, bound cluster-wide on the state hub and on every
 * remote hub (cluster namespaces are chosen by users, so these cannot be namespaced). `state-hub`: ClusterRole
 * `beekeeper-state`, cluster-scoped kinds needed on the state hub only. `state-namespace`: Role `beekeeper-state` in
 * Beekeeper's own namespace on the state hub.
 */
export type Scope = 'every-hub' | 'state-hub' | 'state-namespace';

export interface Permission {
  group: string;
  /** The plural, with `/status` for the status subresource. */
  resource: string;
  verbs: readonly Verb[];
  scope: Scope;
  /**
   * `hive`: not Beekeeper's own request. A relocation hands this hub's kubeconfig to Hive's ClusterRelocate
   * controller on the source hub (REFERENCE.md §6), which copies the cluster here with it.
   */
  usedBy?: 'hive-relocate';
  why: string;
}

const kind = (k: KindName, verbs: readonly Verb[], scope: Scope, why: string, sub?: 'status'): Permission => ({
  group: KINDS[k].group,
  resource: sub ? `${KINDS[k].plural}/${sub}` : KINDS[k].plural,
  verbs,
  scope,
  why,
});

const hiveCopy = (group: string, resource: string, verbs: readonly Verb[], what: string): Permission => ({
  group,
  resource,
  verbs,
  scope: 'every-hub',
  usedBy: 'hive-relocate',
  why: `when this hub is a relocation's destination, Hive's ClusterRelocate copies ${what} here`,
});

const HIVE = 'hive.openshift.io';
const INFORMER: readonly Verb[] = ['list', 'watch'];

export const PERMISSIONS: readonly Permission[] = [
  // Hive's kinds, on every hub: informers (list, watch) feed every read; writes go live.
  kind(
    'ClusterDeployment',
    [...INFORMER, 'get', 'create', 'patch', 'delete'],
    'every-hub',
    'clusters: install (create), power state, delete-after and relocation labels (merge patch), delete; live reads before writes',
  ),
  kind(
    'ClusterPool',
    [...INFORMER, 'get', 'create', 'patch', 'delete'],
    'every-hub',
    'pools: create (with a server-side dry run first), resize and settings (merge patch), delete',
  ),
  kind(
    'ClusterClaim',
    [...INFORMER, 'get', 'create', 'patch', 'delete'],
    'every-hub',
    'claims: create, extend the lifetime (merge patch), release (delete)',
  ),
  kind(
    'ClusterImageSet',
    [...INFORMER, 'get', 'create'],
    'every-hub',
    'image sets are validated on cluster create; a relocation copies a missing one to the destination',
  ),
  kind(
    'ClusterRelocate',
    [...INFORMER, 'create', 'delete'],
    'every-hub',
    'a relocation creates one ClusterRelocate on the source hub and deletes it when done',
  ),
  // Core kinds in cluster namespaces.
  kind(
    'Namespace',
    [...INFORMER, 'get', 'create'],
    'every-hub',
    "team ownership from the namespace label (informer); a cluster's namespace is created when missing",
  ),
  kind(
    'Secret',
    ['get', 'list', 'create', 'patch', 'delete'],
    'every-hub',
    'install-config, pull and credentials Secrets of a new cluster or pool (create, patch, delete on a failed create); ' +
      "a cluster's admin kubeconfig and password (get); the tokens Secret of sign-in (get); the kubeconfig Secret a " +
      "relocation hands to Hive (create, patch, delete); relocation preflight lists the Secrets of a cluster's namespace " +
      'that Hive will copy. No watch: no Secret is cached',
  ),
  kind(
    'ConfigMap',
    ['list'],
    'every-hub',
    "relocation preflight lists the ConfigMaps of a cluster's namespace that Hive will copy, on both hubs",
  ),
  kind(
    'Event',
    ['create', 'list'],
    'every-hub',
    'the audit trail: an Event on each object acted on (create); GET /v1/audit lists them by label',
  ),
  kind(
    'Lease',
    ['get', 'create', 'patch'],
    'every-hub',
    "a claim's heartbeat Lease, in the claim's namespace, owned by the claim",
  ),

  // What Hive's ClusterRelocate controller does with the kubeconfig Beekeeper hands it (REFERENCE.md §6 step 5):
  // create the namespace, copy each object (get, delete and re-create one that differs), the ClusterDeployment last.
  hiveCopy('', 'namespaces', ['create'], "the cluster's namespace"),
  hiveCopy('', 'secrets', ['get', 'create', 'delete'], "the Secrets of the cluster's namespace"),
  hiveCopy('', 'configmaps', ['get', 'create', 'delete'], "the ConfigMaps of the cluster's namespace"),
  hiveCopy(HIVE, 'machinepools', ['get', 'create', 'delete'], 'MachinePools'),
  hiveCopy(HIVE, 'syncsets', ['get', 'create', 'delete'], 'SyncSets'),
  hiveCopy(HIVE, 'syncidentityproviders', ['get', 'create', 'delete'], 'SyncIdentityProviders'),
  hiveCopy(HIVE, 'dnszones', ['get', 'create', 'delete'], 'the managed DNSZone'),
  hiveCopy(HIVE, 'clusterdeployments', ['get', 'create'], 'the ClusterDeployment (after checking none is there)'),

  // The state hub only.
  {
    group: 'authentication.k8s.io',
    resource: 'tokenreviews',
    verbs: ['create'],
    scope: 'state-hub',
    why: 'sign-in by TokenReview (auth.tokenReview.hub): the hub says whose ServiceAccount token a caller sent',
  },

  // Beekeeper's own state, in its namespace on the state hub (informers watch that namespace only).
  ...(['HibernationSchedule', 'ClusterOverride', 'ExpiryPolicy', 'WebhookEndpoint'] as const).map((k) =>
    kind(
      k,
      [...INFORMER, 'get', 'create', 'update', 'delete'],
      'state-namespace',
      'API objects: create, replace, delete',
    ),
  ),
  kind(
    'Operation',
    [...INFORMER, 'get', 'create', 'patch', 'delete'],
    'state-namespace',
    'the durable record of each accepted job: created on accept, its outcome patched, repaired and deleted by resync',
  ),
  kind(
    'Relocation',
    [...INFORMER, 'get', 'create', 'patch', 'delete'],
    'state-namespace',
    'relocations: created by the API, the runner annotation patched, deleted when the create fails half way',
  ),
  ...(
    ['HibernationSchedule', 'ClusterOverride', 'ExpiryPolicy', 'WebhookEndpoint', 'Operation', 'Relocation'] as const
  ).map((k) => kind(k, ['patch'], 'state-namespace', 'progress and results through the status subresource', 'status')),
  {
    group: '',
    resource: 'secrets',
    verbs: ['update'],
    scope: 'state-namespace',
    why: "a webhook endpoint's signing Secret is replaced when the endpoint is",
  },
  {
    group: '',
    resource: 'configmaps',
    verbs: ['get', 'create', 'patch'],
    scope: 'state-namespace',
    why: 'the last resync record (ConfigMap beekeeper-resync)',
  },
];

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: Verb[];
}

const VERB_ORDER: readonly Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** The table as RBAC rules for one scope: one rule per resource, the verbs of every row merged in a fixed order. */
export function rulesFor(scope: Scope): Array<PolicyRule & { why: string[] }> {
  const byResource = new Map<string, { group: string; resource: string; verbs: Set<Verb>; why: string[] }>();
  for (const p of PERMISSIONS) {
    if (p.scope !== scope) continue;
    const key = `${p.group}/${p.resource}`;
    const entry = byResource.get(key) ?? { group: p.group, resource: p.resource, verbs: new Set<Verb>(), why: [] };
    for (const v of p.verbs) entry.verbs.add(v);
    entry.why.push(p.usedBy === 'hive-relocate' ? `Hive: ${p.why}` : p.why);
    byResource.set(key, entry);
  }
  return [...byResource.values()].map((e) => ({
    apiGroups: [e.group],
    resources: [e.resource],
    verbs: VERB_ORDER.filter((v) => e.verbs.has(v)),
    why: e.why,
  }));
}
