// A sweep's plan as it is kept in its job (ctx.once): at 10,000 clusters the plain objects are megabytes of
// repeated hub names, namespaces, actions and reasons, written to Redis before the first PATCH. Packed, each
// cluster is a row of indexes into one table of words plus its name (about 30 bytes).
import type { Consumption, PowerAction } from '../../hive/schedule/index.js';
import type { NamespacedRef } from '../ports.js';
import type { SweepTarget } from './sweep-cluster.js';

export interface PlannedSkip {
  cluster: NamespacedRef;
  action: PowerAction;
  reason: string;
  message: string;
  consumes?: Consumption;
}

/** [hub, namespace, name, action, reason]: numbers index `words`. */
type ActRow = [number, number, string, number, number];
/** [hub, namespace, name, action, reason, message, consumes?]. */
type SkipRow = [number, number, string, number, number, number, Consumption?];

export interface PackedPlan {
  words: string[];
  acts: ActRow[];
  skips: SkipRow[];
}

export function packPlan(acts: readonly SweepTarget[], skips: readonly PlannedSkip[]): PackedPlan {
  const words: string[] = [];
  const index = new Map<string, number>();
  const w = (s: string) => {
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = words.push(s) - 1));
    return i;
  };
  return {
    acts: acts.map((a) => [w(a.cluster.hub), w(a.cluster.namespace), a.cluster.name, w(a.action), w(a.reason)]),
    skips: skips.map((s) => {
      const row: SkipRow = [
        w(s.cluster.hub),
        w(s.cluster.namespace),
        s.cluster.name,
        w(s.action),
        w(s.reason),
        w(s.message),
      ];
      if (s.consumes) row.push(s.consumes);
      return row;
    }),
    words,
  };
}

export function unpackActs(p: PackedPlan): SweepTarget[] {
  return p.acts.map(([hub, namespace, name, action, reason]) => ({
    cluster: { hub: p.words[hub]!, namespace: p.words[namespace]!, name },
    action: p.words[action] as PowerAction,
    reason: p.words[reason]!,
  }));
}

export function unpackSkips(p: PackedPlan): PlannedSkip[] {
  return p.skips.map(([hub, namespace, name, action, reason, message, consumes]) => ({
    cluster: { hub: p.words[hub]!, namespace: p.words[namespace]!, name },
    action: p.words[action] as PowerAction,
    reason: p.words[reason]!,
    message: p.words[message]!,
    ...(consumes ? { consumes } : {}),
  }));
}
