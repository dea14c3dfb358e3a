// Validation that kube-apiserver's Go code does for some built-in kinds beyond their schema (pkg/apis/*/validation),
// for the kinds served from a schema (schema-kinds.ts). Only rules a manifest gets wrong in practice are here.
import type { SchemaCause } from './types.js';

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** metav1.LabelSelectorAsSelector(...).Matches(labels). */
function matches(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]!);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Go's %#v of a map[string]string: keys sorted. */
function goMap(m: Record<string, string>): string {
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** apps/v1 workloads: the selector must select the pods of the template (ValidateDeploymentSpec and friends). */
function selectorMatchesTemplate(obj: any): SchemaCause[] {
  const selector = obj?.spec?.selector;
  const labels = obj?.spec?.template?.metadata?.labels ?? {};
  if (!selector || typeof selector !== 'object') return [];
  if (matches(selector, labels)) return [];
  return [
    {
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goMap(labels)}: \`selector\` does not match template \`labels\``,
      field: 'spec.template.metadata.labels',
    },
  ];
}

const RULES: Record<string, (obj: any) => SchemaCause[]> = {
  'apps/Deployment': selectorMatchesTemplate,
  'apps/ReplicaSet': selectorMatchesTemplate,
  'apps/StatefulSet': selectorMatchesTemplate,
  'apps/DaemonSet': selectorMatchesTemplate,
};

export function kindRules(group: string, kind: string): ((obj: any) => SchemaCause[]) | undefined {
  return RULES[`${group}/${kind}`];
}
