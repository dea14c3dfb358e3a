// Kubernetes LabelSelector semantics (matchLabels AND matchExpressions); an empty selector matches everything.

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, req.key);
    const value = labels[req.key];
    const inValues = has && (req.values ?? []).includes(value as string);
    if (req.operator === 'In' && !inValues) return false;
    if (req.operator === 'NotIn' && inValues) return false;
    if (req.operator === 'Exists' && !has) return false;
    if (req.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}
