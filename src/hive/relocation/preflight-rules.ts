// What preflight judges about one ClusterDeployment before Hive's ClusterRelocate may move it (REFERENCE.md §6):
// pure rules over facts the service gathered from both hubs. Each finding names its reason and its fix.
import { ANNOTATIONS } from '../constants.js';
import { RELOCATION_LABEL } from '../relocation-marks.js';
import { selectorMatches, type LabelSelector } from '../label-selector.js';
import { lifecyclePhase } from '../phase.js';
import type { RelocationCheck } from '../resources/relocation.js';
import { isUnclaimedPoolCluster, requestedState } from '../schedule/cd-facts.js';
import { findCondition, type ClusterDeployment, type KubeObject } from '../types.js';

export { RELOCATION_LABEL };
export const TEAM_LABEL = 'beekeeper.io/team';

/** The check names a report uses (RelocationCheck.check). */
export const CHECK = {
  destination: 'destination-reachable',
  imageSet: 'image-set',
  nameConflict: 'name-conflict',
  conflictingObject: 'conflicting-object',
  secrets: 'secrets',
  installed: 'installed',
  deleting: 'deleting',
  relocating: 'relocating',
  powerTransition: 'power-transition',
  poolCluster: 'pool-cluster',
  claimPending: 'claim-pending',
  clusterRelocate: 'cluster-relocate-match',
  otherRelocation: 'other-relocation',
  sharedNamespace: 'shared-namespace',
} as const;

export interface ClusterRelocateObject extends KubeObject {
  spec?: { clusterDeploymentSelector?: LabelSelector; kubeconfigSecretRef?: { namespace?: string; name?: string } };
}

/** A Secret the CD names that Hive needs beside it, and the field naming it. */
export interface SecretRef {
  field: string;
  name: string;
}

/** Everything preflight read about one cluster, from both hubs. */
export interface ClusterFacts {
  from: string;
  to: string;
  /** The relocation asking, when its job re-runs preflight: its own label on the cluster is no obstacle. */
  relocationId?: string;
  destination: { reachable: boolean; hiveCrdsPresent: boolean; message?: string };
  /** spec.provisioning.imageSetRef.name and where it exists. */
  imageSet?: { name: string; onSource: boolean; onDestination: boolean };
  /** A ClusterDeployment of the same namespace/name on the destination. */
  destinationCd: boolean;
  /** The destination namespace is being deleted: Hive cannot create anything in it. */
  destinationNamespaceTerminating?: boolean;
  /** Same-named Secrets/ConfigMaps in the destination namespace that differ from the source's, with their owners. */
  conflicting: Array<{ kind: 'Secret' | 'ConfigMap'; name: string; owners: Array<{ kind: string; name: string }> }>;
  /** Referenced Secrets the source namespace lacks. */
  missingSecrets: SecretRef[];
  /** ClusterDeployments in the cluster's namespace on the source (itself included). */
  namespaceCds: number;
  /** ClusterRelocates on the source whose selector matches the CD, other than this relocation's own. */
  matchingRelocates: string[];
  /** Other unfinished Relocations that hold this cluster. */
  otherRelocations: string[];
  /** For a claimed pool cluster: whether its claim is still pending (undefined: no such claim found). */
  claimPending?: boolean;
}

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

const error = (check: string, message: string, fix: string): RelocationCheck => ({
  check,
  severity: 'error',
  message,
  fix,
});

/** Every finding about one cluster, errors first as they block; `[]` means nothing to say. */
export function preflightChecks(cd: ClusterDeployment, facts: ClusterFacts): RelocationCheck[] {
  const out: RelocationCheck[] = [];
  const { from, to } = facts;
  const id = `${cd.metadata.namespace}/${cd.metadata.name}`;

  if (!facts.destination.reachable || !facts.destination.hiveCrdsPresent) {
    out.push(
      error(
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
      error(
        CHECK.nameConflict,
        `a ClusterDeployment ${id} already exists on ${to}: Hive refuses or hangs on the copy (openshift/hive#1932)`,
        `delete ${id} on ${to} if it is stale, or relocate to another hub`,
      ),
    );
  }
  if (facts.destinationNamespaceTerminating) {
    out.push(
      error(
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
        error(
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
        error(
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
      error(
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
      error(
        CHECK.clusterRelocate,
        `ClusterRelocate ${facts.matchingRelocates.join(', ')} on ${from} already matches this cluster: with two matches ` +
          'Hive aborts the move (MultipleMatchingRelocates)',
        `delete that ClusterRelocate or change its selector or the cluster's labels`,
      ),
    );
  }
  if (facts.otherRelocations.length > 0) {
    out.push(
      error(
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

/** Where the cluster is in its life: only an installed, settled, unclaimed-or-bound cluster moves. */
function lifecycleChecks(cd: ClusterDeployment, facts: ClusterFacts): RelocationCheck[] {
  const out: RelocationCheck[] = [];
  const phase = lifecyclePhase(cd);
  const relocate = cd.metadata.annotations?.[ANNOTATIONS.relocate];
  const label = cd.metadata.labels?.[RELOCATION_LABEL];

  if (cd.metadata.deletionTimestamp) {
    out.push(
      error(
        CHECK.deleting,
        `being deleted since ${cd.metadata.deletionTimestamp} (${phase.message})`,
        'nothing to move: let the deletion finish',
      ),
    );
    return out;
  }
  if (relocate || (label && label !== facts.relocationId && !facts.otherRelocations.includes(label))) {
    out.push(
      error(
        CHECK.relocating,
        relocate
          ? `already being relocated (${ANNOTATIONS.relocate}=${relocate})`
          : `carries ${RELOCATION_LABEL}=${label} from another relocation`,
        relocate
          ? 'wait for that relocation to finish or abort it'
          : `remove the label ${RELOCATION_LABEL} if relocation ${label} is over`,
      ),
    );
  }
  if (isUnclaimedPoolCluster(cd)) {
    const pool = `${cd.spec.clusterPoolRef?.namespace}/${cd.spec.clusterPoolRef?.poolName}`;
    out.push(
      error(
        CHECK.poolCluster,
        `unclaimed cluster of pool ${pool}: pools are per hub, and the pool on ${facts.from} would replace it`,
        `create the pool on ${facts.to} instead (POST /v1/pools), or claim the cluster first`,
      ),
    );
  }
  if (cd.spec.installed !== true) {
    out.push(
      error(
        CHECK.installed,
        `not installed (${phase.phase}: ${phase.message}); a relocation stops provisioning mid-way`,
        'wait for the install to finish (or delete the cluster), then relocate',
      ),
    );
    return out;
  }
  if (phase.phase === 'Stopping' || phase.phase === 'Resuming') {
    out.push(
      error(
        CHECK.powerTransition,
        `mid power transition: spec.powerState=${requestedState(cd)}, status.powerState=${cd.status?.powerState} (${phase.message})`,
        `wait until the cluster is ${requestedState(cd)}, then relocate`,
      ),
    );
  } else if (
    (phase.phase === 'Running' || phase.phase === 'Hibernating') &&
    requestedState(cd) !== cd.status?.powerState &&
    findCondition(cd, 'Hibernating')?.reason !== 'Unsupported'
  ) {
    out.push(
      error(
        CHECK.powerTransition,
        `power change requested and not started: spec.powerState=${requestedState(cd)}, status.powerState=${cd.status?.powerState}`,
        `wait until the cluster is ${requestedState(cd)}, then relocate`,
      ),
    );
  }
  const claim = cd.spec.clusterPoolRef?.claimName;
  if (claim) {
    const pool = `${cd.spec.clusterPoolRef?.namespace}/${cd.spec.clusterPoolRef?.poolName}`;
    if (facts.claimPending)
      out.push(
        error(
          CHECK.claimPending,
          `claimed by ${cd.spec.clusterPoolRef?.namespace}/${claim}, which is still pending`,
          'wait until the claim is fulfilled (its cluster running), then relocate',
        ),
      );
    else
      out.push({
        check: CHECK.poolCluster,
        severity: 'info',
        message:
          `claimed cluster of pool ${pool}: it moves, its ClusterClaim ${claim} stays on ${facts.from} ` +
          `(Hive copies no claims or pools); on ${facts.to} it is a standalone cluster`,
      });
  }
  return out;
}
