// Which ClusterDeployments a relocation request means: its explicit list, or its selector resolved against the
// source hub's informer cache. Also the request's own checks (hubs, exactly one of clusters and selector), each
// bad field named, so a 422 says everything wrong at once.
import { Invalid, type FieldIssue } from '../../hive/errors.js';
import { selectorMatches } from '../../hive/label-selector.js';
import { TEAM_LABEL } from '../../hive/relocation/preflight-rules.js';
import type { RelocationSpec } from '../../hive/resources/relocation.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore } from '../ports.js';
import type { ClusterName } from './preflight-report.js';

/** The request's checks that need no cluster: hubs known and different, one way of naming the clusters. */
export function specIssues(spec: Partial<RelocationSpec>, hubs: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const known = `configured hubs: ${hubs.join(', ')}`;
  if (spec.from !== undefined && !hubs.includes(spec.from))
    issues.push({ field: 'from', reason: `"${spec.from}" is not a configured hub (${known})` });
  if (spec.to !== undefined && !hubs.includes(spec.to))
    issues.push({ field: 'to', reason: `"${spec.to}" is not a configured hub (${known})` });
  if (spec.from !== undefined && spec.from === spec.to)
    issues.push({ field: 'to', reason: 'must differ from from: a relocation moves clusters to another hub' });
  const hasClusters = spec.clusters !== undefined;
  const hasSelector = spec.selector !== undefined;
  if (hasClusters === hasSelector) {
    const reason = hasClusters
      ? 'give clusters or selector, not both'
      : 'give clusters (a list of {namespace, name}) or selector (labels, namespaces, pool, team)';
    issues.push({ field: 'clusters', reason }, { field: 'selector', reason });
  }
  const seen = new Set<string>();
  spec.clusters?.forEach((c, i) => {
    const key = `${c.namespace}/${c.name}`;
    if (seen.has(key)) issues.push({ field: `clusters[${i}]`, reason: `${key} is listed twice` });
    seen.add(key);
  });
  return issues;
}

const byName = (a: ClusterName, b: ClusterName) =>
  a.namespace === b.namespace ? a.name.localeCompare(b.name) : a.namespace.localeCompare(b.namespace);

/**
 * The clusters the (valid) spec names, in a stable order: the list as given, or the selector's matches sorted by
 * namespace and name. A pool means its claimed clusters (an unclaimed one never moves: pools are per hub). Throws
 * Invalid naming the field when a listed cluster is not on the source hub or the selector matches nothing.
 */
/** `keep`: which of the selector's matches it may select (a team's relocation: its own team's clusters only). */
export function selectClusters(
  store: HiveStore,
  spec: RelocationSpec,
  keep: (cd: ClusterDeployment) => boolean = () => true,
): ClusterName[] {
  const { from } = spec;
  if (spec.clusters) {
    const issues: FieldIssue[] = [];
    spec.clusters.forEach((c, i) => {
      if (store.cached('ClusterDeployment', { hub: from, ...c })) return;
      const elsewhere = store
        .hubNames()
        .filter((h) => h !== from && store.cached('ClusterDeployment', { hub: h, ...c }));
      issues.push({
        field: `clusters[${i}]`,
        reason: `no ClusterDeployment ${c.namespace}/${c.name} on hub ${from}${elsewhere.length ? ` (it is on ${elsewhere.join(', ')})` : ''}`,
      });
    });
    if (issues.length) throw new Invalid(`the relocation names clusters that are not on ${from}`, issues);
    return spec.clusters.map(({ namespace, name }) => ({ namespace, name }));
  }
  const sel = spec.selector ?? {};
  const matches = store
    .cachedList<ClusterDeployment>('ClusterDeployment', { hub: from })
    .map((e) => e.object)
    .filter((cd) => {
      const labels = cd.metadata.labels ?? {};
      if (sel.labels && !selectorMatches(sel.labels, labels)) return false;
      if (sel.namespaces && !sel.namespaces.includes(cd.metadata.namespace ?? '')) return false;
      if (sel.team !== undefined && labels[TEAM_LABEL] !== sel.team) return false;
      if (sel.pool) {
        const ref = cd.spec.clusterPoolRef;
        if (ref?.namespace !== sel.pool.namespace || ref.poolName !== sel.pool.name || !ref.claimName) return false;
      }
      return keep(cd);
    })
    .map((cd) => ({ namespace: cd.metadata.namespace!, name: cd.metadata.name }))
    .sort(byName);
  if (matches.length === 0)
    throw new Invalid(`the selector matches no cluster on ${from}`, [
      {
        field: 'selector',
        reason: `matches no ClusterDeployment on hub ${from}${sel.pool ? ' (a pool selects its claimed clusters only)' : ''}`,
      },
    ]);
  return matches;
}
