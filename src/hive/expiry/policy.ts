// Expiry policies: which clusters they cover and the limits in force for one cluster. When several policies
// cover a cluster the strictest wins (smallest maximum, smallest default) and every warning lead time applies.
import { isCrdDuration, parseGoDuration } from '../duration.js';
import type { FieldIssue } from '../errors.js';
import { selectorMatches } from '../label-selector.js';
import type { ClusterDeployment } from '../types.js';
import type { ExpiryPolicySpec } from '../resources/expiry-policy.js';

export const DEFAULT_TEAM_LABEL = 'beekeeper.io/team';
export const DEFAULT_WARNING_LEADS = ['24h', '1h'];

export type { ExpiryPolicySpec };

export interface NamedPolicy {
  name: string;
  spec: ExpiryPolicySpec;
  /** The owning team (label beekeeper.io/team): the policy covers only that team's clusters. None: every cluster. */
  team?: string;
}

export interface EffectiveLimits {
  /** From creationTimestamp, as Hive's delete-after counts. */
  maxLifetimeMs?: number;
  maxFrom?: string;
  defaultLifetimeMs?: number;
  defaultFrom?: string;
  /** Lead times in ms, largest first. */
  warningLeadsMs: number[];
  policies: string[];
}

export function expiryPolicyIssues(spec: ExpiryPolicySpec, prefix = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const duration = (field: string, value: string | undefined) => {
    if (value !== undefined && (!isCrdDuration(value) || (parseGoDuration(value) ?? 0) <= 0)) {
      issues.push({
        field: prefix + field,
        reason: `"${value}" is not a positive duration such as 8h or 90m (units h, m, s; no d)`,
      });
    }
  };
  duration('maxLifetime', spec.maxLifetime);
  duration('defaultLifetime', spec.defaultLifetime);
  spec.warnings?.forEach((w, i) => duration(`warnings[${i}]`, w));
  const max = spec.maxLifetime ? parseGoDuration(spec.maxLifetime) : undefined;
  const def = spec.defaultLifetime ? parseGoDuration(spec.defaultLifetime) : undefined;
  if (max !== undefined && def !== undefined && def > max) {
    issues.push({
      field: `${prefix}defaultLifetime`,
      reason: `${spec.defaultLifetime} is longer than maxLifetime ${spec.maxLifetime}`,
    });
  }
  return issues;
}

/** Policies select by metadata alone, so a cluster not created yet (a request) is judged like one that exists. */
export function policyCovers(spec: ExpiryPolicySpec, hub: string, cd: Pick<ClusterDeployment, 'metadata'>): boolean {
  const sel = spec.selector ?? {};
  if (sel.hubs?.length && !sel.hubs.includes(hub)) return false;
  if (sel.namespaces?.length && !sel.namespaces.includes(cd.metadata.namespace ?? '')) return false;
  const labels = cd.metadata.labels ?? {};
  if (sel.teams?.length && !sel.teams.includes(labels[spec.teamLabel ?? DEFAULT_TEAM_LABEL] ?? '')) return false;
  return selectorMatches(sel.labelSelector, labels);
}

/** `team`: the cluster's owning team (a team's policy covers only its own team's clusters). */
export function effectiveLimits(
  policies: NamedPolicy[],
  hub: string,
  cd: Pick<ClusterDeployment, 'metadata'>,
  team: string | undefined,
): EffectiveLimits {
  const covering = policies.filter((p) => (p.team === undefined || p.team === team) && policyCovers(p.spec, hub, cd));
  const out: EffectiveLimits = { warningLeadsMs: [], policies: covering.map((p) => p.name) };
  const leads = new Set<number>();
  for (const p of covering) {
    const max = p.spec.maxLifetime ? parseGoDuration(p.spec.maxLifetime) : undefined;
    if (max !== undefined && (out.maxLifetimeMs === undefined || max < out.maxLifetimeMs))
      Object.assign(out, { maxLifetimeMs: max, maxFrom: p.name });
    const def = p.spec.defaultLifetime ? parseGoDuration(p.spec.defaultLifetime) : undefined;
    if (def !== undefined && (out.defaultLifetimeMs === undefined || def < out.defaultLifetimeMs))
      Object.assign(out, { defaultLifetimeMs: def, defaultFrom: p.name });
    for (const w of p.spec.warnings ?? DEFAULT_WARNING_LEADS) {
      const ms = parseGoDuration(w);
      if (ms !== undefined && ms > 0) leads.add(ms);
    }
  }
  if (covering.length === 0) for (const w of DEFAULT_WARNING_LEADS) leads.add(parseGoDuration(w) as number);
  if (out.defaultLifetimeMs !== undefined && out.maxLifetimeMs !== undefined)
    out.defaultLifetimeMs = Math.min(out.defaultLifetimeMs, out.maxLifetimeMs);
  out.warningLeadsMs = [...leads].sort((a, b) => b - a);
  return out;
}
