// Kubernetes label selectors, both forms: the query string (`env=prod,tier!=db,zone in (a,b),!legacy`) and
// metav1.LabelSelector (matchLabels AND matchExpressions), matched the way the API server does: `!=`, `notin` and
// NotIn also match objects without the key (kube-golden 42, 44).
import { invalid } from './errors.js';
import type { LabelSelector } from './resources/shared.js';

export type { LabelSelector };

export type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!exists' };

/** A label key: an optional DNS-subdomain prefix and `/`, then a name of [A-Za-z0-9-_.]. */
export const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A label value: empty, or [A-Za-z0-9-_.] alphanumeric at both ends (63 at most, checked apart). */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Split on commas that are not inside parentheses. */
function clauses(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim()).filter((c) => c !== '');
}

/** A label value as Kubernetes takes it: at most 63 characters, alphanumeric at both ends, `-_.` inside. */
export function isLabelValue(value: string): boolean {
  return value.length <= 63 && LABEL_VALUE.test(value);
}

/** A label key as Kubernetes takes it: an optional DNS prefix (at most 253) and a name of at most 63 characters. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  return LABEL_KEY.test(key) && key.length - slash - 1 <= 63 && slash <= 253;
}

function checkKey(key: string, field: string): string {
  if (!LABEL_KEY.test(key)) throw invalid(field, `"${key}" is not a valid label key`);
  return key;
}

function checkValue(value: string, field: string): string {
  if (!LABEL_VALUE.test(value) || value.length > 63) throw invalid(field, `"${value}" is not a valid label value`);
  return value;
}

/** Parse a selector; throws Invalid naming `field` on bad syntax. */
export function parseLabelSelector(text: string, field = 'labelSelector'): Requirement[] {
  return clauses(text).map((clause): Requirement => {
    const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(clause);
    if (set) {
      const values = set[3]!.split(',').map((v) => checkValue(v.trim(), field));
      return { key: checkKey(set[1]!, field), op: set[2] as 'in' | 'notin', values };
    }
    const eq = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(clause);
    if (eq) {
      const op = eq[2] === '!=' ? 'notin' : 'in';
      return { key: checkKey(eq[1]!, field), op, values: [checkValue(eq[3]!, field)] };
    }
    if (clause.startsWith('!')) return { key: checkKey(clause.slice(1).trim(), field), op: '!exists' };
    if (/^\S+$/.test(clause)) return { key: checkKey(clause, field), op: 'exists' };
    throw invalid(field, `cannot parse "${clause}"`);
  });
}

export function matchesLabels(requirements: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case '!exists':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key]!);
      case 'notin':
        return !has || !r.values.includes(l[r.key]!);
    }
  });
}

const OPERATORS: Record<string, Requirement['op'] | undefined> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!exists',
};

/**
 * A metav1.LabelSelector against labels. An empty selector matches everything; an absent one does too, since
 * Beekeeper's selectors are optional filters (Hive's nil selectors, which match nothing, check for absence first).
 * An unknown operator matches nothing, as LabelSelectorAsSelector's error does.
 */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  const requirements: Requirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    op: 'in',
    values: [value],
  }));
  for (const { key, operator, values } of selector.matchExpressions ?? []) {
    const op = OPERATORS[operator];
    if (!op) return false;
    requirements.push(op === 'exists' || op === '!exists' ? { key, op } : { key, op, values: values ?? [] });
  }
  return matchesLabels(requirements, labels);
}
