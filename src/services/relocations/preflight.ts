// Preflight (preflight-report.ts): gathers, per cluster, what hive/relocation/preflight-rules.ts judges. Caches
// first (ClusterDeployments, ClusterImageSets, ClusterRelocates, claims and Relocations); the few things no cache
// holds (Secrets, ConfigMaps and Namespaces) are read live, once per namespace, a few namespaces at a time
// (namespace-facts.ts).
import { findCondition } from '../../hive/types.js';
import {
  isOwnRelocate,
  matchingRelocates,
  preflightChecks,
  referencedSecrets,
} from '../../hive/relocation/preflight-rules.js';
import type { ClusterFacts, ClusterRelocateObject } from '../../hive/relocation/preflight-facts.js';
import { isTerminal } from '../../hive/relocation/plan.js';
import type { RelocationCluster, RelocationSpec, RelocationStatus } from '../../hive/resources/relocation.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { ClusterDeployment, Secret } from '../../hive/types.js';
import type { HiveStore, KubeObject, StateLocation } from '../ports.js';
import type { ClusterName, ClusterPreflight, Preflight, PreflightReport } from './preflight-report.js';
import { clusterTeamOf, ownerTeam, type TeamScope } from '../team-scope.js';
import { namespaceFacts, type NamespaceFacts } from './namespace-facts.js';
import { mapLimit } from '../../map-limit.js';

export interface PreflightDeps extends StateLocation, TeamScope {
  store: HiveStore;
}

/** A Relocation as stored. */
export interface RelocationObject extends KubeObject {
  spec: RelocationSpec;
  status?: RelocationStatus;
}

const STILL_HELD: ReadonlySet<RelocationCluster['state']> = new Set(['pending', 'moving', 'verifying']);
const PARALLEL_NAMESPACES = 8;
/** Beyond this many namespaces, one list of the source's Secrets costs less of the hub's rate limit than one each. */
const ONE_LIST_FROM = 10;

/** The relocation job re-runs it as each wave starts, telling it which relocation asks. */
export type RelocationPreflight = Preflight;

export function createPreflight(deps: PreflightDeps): Preflight {
  return (spec, clusters, opts) => runPreflight(deps, spec, clusters, opts);
}

async function runPreflight(
  deps: PreflightDeps,
  spec: RelocationSpec,
  clusters: readonly ClusterName[],
  opts: { id?: string; team?: string } = {},
): Promise<PreflightReport> {
  const { store } = deps;
  const team = opts.team ?? (opts.id ? await relocationTeam(deps, opts.id) : undefined);
  const { from, to } = spec;
  const warnings: string[] = [];
  const hubs = await store.hubStatus();
  const hub = hubs.find((h) => h.name === to);
  // The name-conflict and image-set checks read the destination's caches: until they hold a first list, an absent
  // object proves nothing.
  const unsynced = (['ClusterDeployment', 'ClusterImageSet'] as const).filter(
    (k) => hub?.informers[k]?.synced === false,
  );
  const destination = {
    reachable: (hub?.reachable ?? false) && unsynced.length === 0,
    hiveCrdsPresent: hub?.hiveCrdsPresent ?? false,
    ...(unsynced.length
      ? {
          message: `Beekeeper has not yet listed its ${unsynced.join(' and ')}s (${hub?.informers[unsynced[0]!]?.lastError ?? 'syncing'})`,
        }
      : hub?.message
        ? { message: hub.message }
        : {}),
  };
  const source = hubs.find((h) => h.name === from);
  if (source?.informers.ClusterDeployment?.synced === false)
    warnings.push(`Beekeeper has not yet listed the ClusterDeployments of ${from}: the selection may be incomplete`);
  const destinationUp = destination.reachable && destination.hiveCrdsPresent;
  if (!destinationUp) warnings.push(`destination hub ${to}: ${destination.message ?? 'unreachable'}`);

  const relocates = store
    .cachedList<ClusterRelocateObject>('ClusterRelocate', { hub: from })
    .map((e) => e.object)
    .filter((r) => !isOwnRelocate(r, opts.id));
  const active = store
    .cachedList<RelocationObject>('Relocation', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((e) => e.object)
    .filter((r) => r.metadata.name !== opts.id && r.spec.from === from && !isTerminal(r.status?.phase));
  const holders = (c: ClusterName) =>
    active
      .filter((r) =>
        (r.status?.clusters ?? []).some(
          (x) => x.namespace === c.namespace && x.name === c.name && x.hub === from && STILL_HELD.has(x.state),
        ),
      )
      .map((r) => r.metadata.name);

  const found = clusters.map((c) => ({
    ...c,
    cd: store.cached<ClusterDeployment>('ClusterDeployment', { hub: from, ...c }),
  }));
  const namespaces = [...new Set(found.filter((c) => c.cd).map((c) => c.namespace))];
  // One list of the destination's namespaces spares a read per namespace that is not there (the usual case).
  const destinationNamespaces =
    destinationUp && namespaces.length > 1
      ? await store
          .list('Namespace', to)
          .then((list) => new Map(list.map((n) => [n.metadata.name, n])))
          .catch(() => undefined)
      : undefined;
  const wanted = new Set(namespaces);
  const sourceSecrets =
    namespaces.length > ONE_LIST_FROM
      ? await store
          .list<Secret>('Secret', from)
          .then((all) => {
            const byNs = new Map<string, Secret[]>(namespaces.map((ns) => [ns, []]));
            for (const s of all) if (wanted.has(s.metadata.namespace ?? '')) byNs.get(s.metadata.namespace!)!.push(s);
            return byNs;
          })
          .catch(() => undefined)
      : undefined;
  const facts = new Map<string, NamespaceFacts>();
  await mapLimit(namespaces, PARALLEL_NAMESPACES, async (ns) => {
    facts.set(
      ns,
      await namespaceFacts(store, {
        from,
        to,
        namespace: ns,
        destinationUp,
        destinationNamespaces,
        sourceSecrets: sourceSecrets?.get(ns),
      }),
    );
  });
  for (const [ns, f] of facts) if (f.unchecked) warnings.push(`namespace ${ns}: ${f.unchecked}`);

  const imageSetsToCopy = new Set<string>();
  const report: ClusterPreflight[] = found.map(({ namespace, name, cd }) => {
    if (!cd) {
      return {
        namespace,
        name,
        ok: false,
        checks: [
          {
            check: 'not-found',
            severity: 'error' as const,
            message: `no ClusterDeployment ${namespace}/${name} on ${from}`,
            fix: 'check the name, or whether it moved already (GET /v1/clusters)',
          },
        ],
      };
    }
    // A team's relocation moves its own team's clusters only (ownership may have changed since it was asked for).
    if (team !== undefined && clusterTeamOf(deps, from, cd) !== team) {
      return {
        namespace,
        name,
        ok: false,
        checks: [
          {
            check: 'team',
            severity: 'error' as const,
            message: `${namespace}/${name} is not a cluster of team ${team}, which owns this relocation`,
            fix: 'leave it out, or have its own team (or a platform admin) relocate it',
          },
        ],
      };
    }
    const ns = facts.get(namespace)!;
    const imageSetName = cd.spec.provisioning?.imageSetRef?.name;
    const claimRef = cd.spec.clusterPoolRef;
    const claim =
      claimRef?.claimName !== undefined
        ? store.cached<ClusterClaim>('ClusterClaim', {
            hub: from,
            namespace: claimRef.namespace,
            name: claimRef.claimName,
          })
        : undefined;
    const clusterFacts: ClusterFacts = {
      from,
      to,
      ...(opts.id ? { relocationId: opts.id } : {}),
      destination,
      ...(imageSetName
        ? {
            imageSet: {
              name: imageSetName,
              onSource: !!store.cached('ClusterImageSet', { hub: from, name: imageSetName }),
              // Unknown while the destination is down: the destination check already says so.
              onDestination: !destinationUp || !!store.cached('ClusterImageSet', { hub: to, name: imageSetName }),
            },
          }
        : {}),
      destinationCd: !!store.cached('ClusterDeployment', { hub: to, namespace, name }),
      destinationNamespaceTerminating: ns.terminating,
      conflicting: ns.conflicting,
      missingSecrets: ns.unchecked ? [] : referencedSecrets(cd).filter((s) => !ns.secrets.has(s.name)),
      namespaceCds: store.cachedList('ClusterDeployment', { hub: from, namespace }).length,
      matchingRelocates: matchingRelocates(cd, relocates),
      otherRelocations: holders({ namespace, name }),
      ...(claim ? { claimPending: findCondition(claim, 'Pending')?.status !== 'False' } : {}),
    };
    const checks = preflightChecks(cd, clusterFacts);
    const ok = !checks.some((c) => c.severity === 'error');
    if (ok && clusterFacts.imageSet && !clusterFacts.imageSet.onDestination) imageSetsToCopy.add(imageSetName!);
    return { namespace, name, ok, checks };
  });
  return { clusters: report, imageSetsToCopy: [...imageSetsToCopy].sort(), warnings };
}

/** The owning team of the relocation `id` (its label), from the cache or else read live. */
async function relocationTeam(deps: PreflightDeps, id: string): Promise<string | undefined> {
  const ref = { hub: deps.stateHub, namespace: deps.stateNamespace, name: id };
  const rel =
    deps.store.cached<RelocationObject>('Relocation', ref) ??
    (await deps.store.get<RelocationObject>('Relocation', ref));
  return rel ? ownerTeam(rel) : undefined;
}
