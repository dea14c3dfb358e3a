// What preflight judges about one ClusterDeployment before Hive's ClusterRelocate may move it (REFERENCE.md §6):
// pure rules over facts the service gathered from both hubs. Each finding names its reason and its fix.
import { RELOCATION_LABEL } from '../relocation-marks.js';
import { selectorMatches } from '../label-selector.js';
import type { RelocationCheck } from '../resources/relocation.js';
import type { ClusterDeployment } from '../types.js';
import { blocking, CHECK, type ClusterFacts, type ClusterRelocateObject, type SecretRef } from './preflight-facts.js';
import { lifecycleChecks } from './lifecycle-checks.js';

export { RELOCATION_LABEL };
export const TEAM_LABEL = 'beekeeper.io/team';

const PLATFORMS = ['aws', 'gcp', 'azure', 'ibmcloud', 'openstack', 'vsphere', 'nutanix'] as const;

/** The Secrets a ClusterDeployment refers to by name that Hive reads after the move: credentials, pull, admin. */
export function referencedSecrets(cd: ClusterDeployment): SecretRef[] {
  const refs: SecretRef[] = [];
  const platform = (cd.spec.platform ?? {}) as Record<string, { credentialsSecretRef?: { name?: string } } | undefined>;
  for (const p of PLATFORMS) {
    const name = platform[p]?.credentialsSecretRef?.name;
    if (name) refs.push({ field: `spec.platform.${p}.credentialsSecretRef`, name });
  }
  if (cd.spec.pullSecretRef?.name) refs.push({ field: 'spec.pullSecretRef', name: cd.spec.pullSecretRef.name });
  const admin = cd.spec.clusterMetadata?.adminKubeconfigSecretRef?.name;
  if (admin) refs.push({ field: 'spec.clusterMetadata.adminKubeconfigSecretRef', name: admin });
  return refs;
}

/** ClusterRelocates whose selector matches the CD's labels. Hive treats a nil selector as matching nothing. */
export function matchingRelocates(cd: ClusterDeployment, relocates: readonly ClusterRelocateObject[]): string[] {
  return relocates
    .filter(
      (r) => r.spec?.clusterDeploymentSelector && selectorMatches(r.spec.clusterDeploymentSelector, cd.metadata.labels),
    )
    .map((r) => `${r.metadata.namespace ? `${r.metadata.namespace}/` : ''}${r.metadata.name}`);
}

/** Whether this ClusterRelocate is the one the relocation `id` owns (its selector is exactly the relocation label). */
export function isOwnRelocate(r: ClusterRelocateObject, id: string | undefined): boolean {
  const sel = r.spec?.clusterDeploymentSelector;
  if (!id || !sel || (sel.matchExpressions?.length ?? 0) > 0) return false;
  const labels = Object.entries(sel.matchLabels ?? {});
  return labels.length === 1 && labels[0]![0] === RELOCATION_LABEL && labels[0]![1] === id;
}

/** Every finding about one cluster, errors first as they block; `[]` means nothing to say. */
export function preflightChecks(cd: ClusterDeployment, facts: ClusterFacts): RelocationCheck[] {
  const out: RelocationCheck[] = [];
  const { from, to } = facts;
  const id = `${cd.metadata.namespace}/${cd.metadata.name}`;

  if (!facts.destination.reachable || !facts.destination.hiveCrdsPresent) {
    out.push(
      blocking(
        CHECK.destination,
        facts.destination.reachable
          ? `hub ${to} does not serve Hive's API: ${facts.destination.message ?? 'Hive CRDs missing'}`
          : `hub ${to} is unreachable: ${facts.destination.message ?? 'no answer'}`,
        facts.destination.reachable
          ? `install Hive on ${to}, or relocate to another hub`
          : `check GET /v1/hubs and the hub's kubeconfig, then retry`,
      ),
    );
  }
  if (facts.destinationCd) {
    out.push(
      blocking(
        CHECK.nameConflict,
        `a ClusterDeployment ${id} already exists on ${to}: Hive refuses or hangs on the copy (openshift/hive#1932)`,
        `delete ${id} on ${to} if it is stale, or relocate to another hub`,
      ),
    );
  }
  if (facts.destinationNamespaceTerminating) {
    out.push(
      blocking(
        CHECK.conflictingObject,
        `namespace ${cd.metadata.namespace} on ${to} is being deleted: Hive cannot copy into it`,
        `wait until namespace ${cd.metadata.namespace} is gone from ${to}, then retry`,
      ),
    );
  }
  for (const c of facts.conflicting) {
    // What the destination's namesake ClusterDeployment owns goes with it: the name conflict already says so.
    const sameCd = (o: { kind: string; name: string }) => o.kind === 'ClusterDeployment' && o.name === cd.metadata.name;
    if (facts.destinationCd && c.owners.some(sameCd)) continue;
    const owners = c.owners.filter((o) => !sameCd(o));
    if (owners.length > 0)
      out.push(
        blocking(
          CHECK.conflictingObject,
          `${c.kind} ${cd.metadata.namespace}/${c.name} exists on ${to}, differs from ${from}'s and is owned by ` +
            `${owners.map((o) => `${o.kind} ${o.name}`).join(', ')}: Hive deletes and re-creates it, and its owner's ` +
            'controller re-creating it first makes the copy fail with MoveFailed, again and again (openshift/hive#1932)',
          `delete ${c.kind} ${c.name} and its owner in ${cd.metadata.namespace} on ${to}, or rename it on ${from}`,
        ),
      );
    else
      out.push({
        check: CHECK.conflictingObject,
        severity: 'warning',
        message: `${c.kind} ${cd.metadata.namespace}/${c.name} on ${to} differs from ${from}'s: Hive replaces it with ${from}'s`,
        fix: `keep a copy of ${to}'s ${c.kind} ${c.name} if it matters`,
      });
  }
  if (facts.imageSet) {
    const { name, onSource, onDestination } = facts.imageSet;
    if (!onDestination && !onSource)
      out.push(
        blocking(
          CHECK.imageSet,
          `ClusterImageSet ${name} (spec.provisioning.imageSetRef) exists on neither ${from} nor ${to}`,
          `create ClusterImageSet ${name} on ${to}`,
        ),
      );
    else if (!onDestination)
      out.push({
        check: CHECK.imageSet,
        severity: 'info',
        message: `ClusterImageSet ${name} is missing on ${to}; Hive does not copy it, so Beekeeper copies it from ${from}`,
      });
  }
  for (const s of facts.missingSecrets) {
    out.push(
      blocking(
        CHECK.secrets,
        `Secret ${cd.metadata.namespace}/${s.name} (${s.field}) is missing on ${from}: Hive copies the namespace's Secrets, ` +
          `so ${to} would lack it too`,
        `create Secret ${s.name} in ${cd.metadata.namespace} on ${from}`,
      ),
    );
  }
  out.push(...lifecycleChecks(cd, facts));
  if (facts.matchingRelocates.length > 0) {
    out.push(
      blocking(
        CHECK.clusterRelocate,
        `ClusterRelocate ${facts.matchingRelocates.join(', ')} on ${from} already matches this cluster: with two matches ` +
          'Hive aborts the move (MultipleMatchingRelocates)',
        `delete that ClusterRelocate or change its selector or the cluster's labels`,
      ),
    );
  }
  if (facts.otherRelocations.length > 0) {
    out.push(
      blocking(
        CHECK.otherRelocation,
        `relocation ${facts.otherRelocations.join(', ')} is already moving this cluster`,
        `wait for it to end, or abort it (POST /v1/relocations/{id}/abort)`,
      ),
    );
  }
  if (facts.namespaceCds > 1) {
    out.push({
      check: CHECK.sharedNamespace,
      severity: 'warning',
      message:
        `namespace ${cd.metadata.namespace} holds ${facts.namespaceCds} ClusterDeployments: Hive copies every Secret ` +
        `and ConfigMap of the namespace to ${to}, the other clusters' too`,
      fix: 'keep one ClusterDeployment per namespace (Hive recommends it)',
    });
  }
  return out.sort((a, b) => SEVERITY[a.severity] - SEVERITY[b.severity]);
}

const SEVERITY = { error: 0, warning: 1, info: 2 } as const;
