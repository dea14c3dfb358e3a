import { toTime } from './go-values.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

// PositivePolarityClusterDeploymentConditions (apis/hive/v1/clusterdeployment_types.go): for these True is good;
// for every other type True signals a problem.
const POSITIVE = new Set([
  'ActiveAPIURLOverride',
  'Hibernating',
  'Ready',
  'AWSPrivateLinkReady',
  'ClusterInstallCompleted',
  'ClusterInstallRequirementsMet',
  'RequirementsMet',
  'Provisioned',
]);

export const INITIALIZED = { reason: 'Initialized', message: 'Condition Initialized' } as const;

export const findCondition = (conds: Condition[] | undefined, type: string): Condition | undefined =>
  conds?.find((c) => c.type === type);

/**
 * pkg/controller/utils/conditions.go SortClusterDeploymentConditions: undesired first, then desired, then
 * Unknown, each group alphabetical by type.
 */
export function sortCdConditions(conds: Condition[]): Condition[] {
  const rank = (c: Condition) => {
    if (c.status === 'Unknown') return 2;
    const good = POSITIVE.has(c.type) ? c.status === 'True' : c.status === 'False';
    return good ? 1 : 0;
  };
  return [...conds].sort((a, b) => rank(a) - rank(b) || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Adds each missing type as Unknown/Initialized/"Condition Initialized", as every Hive controller does for its own. */
export function initConditions(conds: Condition[] | undefined, types: string[], now: number): Condition[] {
  const out = [...(conds ?? [])];
  for (const type of types) {
    if (!out.some((c) => c.type === type)) {
      out.push({
        type,
        status: 'Unknown',
        ...INITIALIZED,
        lastProbeTime: toTime(now),
        lastTransitionTime: toTime(now),
      });
    }
  }
  return out;
}

/**
 * SetClusterDeploymentConditionWithChangeCheck with UpdateConditionIfReasonOrMessageChange: the condition is
 * rewritten only when status, reason or message changes; lastTransitionTime moves only when status changes.
 */
export function setCondition(
  conds: Condition[] | undefined,
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  now: number,
): Condition[] {
  const out = [...(conds ?? [])];
  const i = out.findIndex((c) => c.type === type);
  const old = i >= 0 ? out[i] : undefined;
  if (old && old.status === status && old.reason === reason && old.message === message) return out;
  const stamp = toTime(now);
  const next: Condition = {
    type,
    status,
    reason,
    message,
    lastProbeTime: stamp,
    lastTransitionTime: old && old.status === status && old.lastTransitionTime ? old.lastTransitionTime : stamp,
  };
  if (i >= 0) out[i] = next;
  else out.push(next);
  return out;
}

/** Shorthand for a series of setCondition calls on ClusterDeployment conditions, sorted as Hive keeps them. */
export function setCdConditions(
  conds: Condition[] | undefined,
  now: number,
  ...changes: Array<[type: string, status: Condition['status'], reason: string, message: string]>
): Condition[] {
  let out = conds ?? [];
  for (const [t, s, r, m] of changes) out = setCondition(out, t, s, r, m, now);
  return sortCdConditions(out);
}
