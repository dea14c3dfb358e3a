// The one-page view of a ClusterDeployment a person can read, built from Hive's own fields (REFERENCE.md §2).
import { isProblem } from '../../hive/condition-problem.js';
import { ANNOTATIONS, LABELS } from '../../hive/constants.js';
import { expiresAt } from '../../hive/delete-after.js';
import { isTruthy } from '../../hive/go-bool.js';
import { lifecyclePhase, type LifecyclePhase } from '../../hive/phase.js';
import type { ClusterDeployment, Condition } from '../../hive/types.js';

export interface ConditionSummary {
  type: string;
  status: Condition['status'];
  reason?: string;
  message?: string;
  since?: string;
  /** True when the condition reports something wrong: its polarity, with the state-like types read by reason (isProblem). */
  problem: boolean;
  /** The condition in plain words. */
  summary: string;
}

export interface ClusterSummary {
  hub: string;
  namespace: string;
  name: string;
  uid?: string;
  createdAt?: string;
  phase: LifecyclePhase['phase'];
  phaseReason?: string;
  phaseMessage: string;
  step?: LifecyclePhase['step'];
  installed: boolean;
  powerState: { desired: 'Running' | 'Hibernating'; observed?: string };
  hibernateAfter?: string;
  apiURL?: string;
  /** Hive's status.webConsoleURL, under Hive's name as on claims. */
  webConsoleURL?: string;
  /** Deprecated: the same URL under its 0.1 name; removed in 0.2. */
  consoleURL?: string;
  version?: string;
  platform?: string;
  region?: string;
  baseDomain: string;
  pool?: { namespace: string; name: string };
  claim?: { name: string; claimedAt?: string };
  expiry?: { deleteAfter: string; expiresAt?: string };
  protected: boolean;
  labels: Record<string, string>;
  /** The conditions that report a problem, in plain words (empty when all is well); the same shape as a pool's. */
  problems: Array<{ type: string; reason?: string; message: string }>;
  /** Every condition; on a single cluster's view, not on list items. */
  conditions?: ConditionSummary[];
  raw?: ClusterDeployment;
}

function platformOf(cd: ClusterDeployment): { platform?: string; region?: string } {
  const [name, spec] = Object.entries(cd.spec.platform ?? {}).find(([, v]) => v !== undefined) ?? [];
  const region = (spec as { region?: string } | undefined)?.region ?? cd.metadata.labels?.[LABELS.clusterRegion];
  return { platform: cd.metadata.labels?.[LABELS.clusterPlatform] ?? name, ...(region ? { region } : {}) };
}

/** The console URL under its name, and for 0.1 clients also under the name cluster views used before (consoleURL). */
export function consoleUrls(cd: ClusterDeployment): { webConsoleURL?: string; consoleURL?: string } {
  const url = cd.status?.webConsoleURL;
  return url ? { webConsoleURL: url, consoleURL: url } : {};
}

function describeCondition(cd: ClusterDeployment, c: Condition): ConditionSummary {
  const problem = isProblem(cd, c);
  const answer = c.status === 'True' ? 'yes' : c.status === 'False' ? 'no' : 'unknown';
  const words = c.message && c.message !== 'Condition Initialized' ? ` - ${c.message}` : '';
  return {
    type: c.type,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { since: c.lastTransitionTime } : {}),
    problem,
    summary: `${c.type}: ${answer} (${c.reason ?? 'no reason'})${words}`,
  };
}

/** A cluster's view; `detail` (a single cluster's GET) adds every condition and, with `raw`, the object as stored. */
export function summarize(
  hub: string,
  cd: ClusterDeployment,
  opts: { detail?: boolean; raw?: boolean } = {},
): ClusterSummary {
  const phase = lifecyclePhase(cd);
  const deleteAfter = cd.metadata.annotations?.[ANNOTATIONS.deleteAfter];
  const expiry = deleteAfter ? expiresAt(cd.metadata.creationTimestamp ?? '', deleteAfter) : undefined;
  const pool = cd.spec.clusterPoolRef;
  const version = cd.metadata.labels?.[LABELS.version] ?? cd.status?.installVersion;
  // Problems first, then the rest, the way Hive sorts them (pkg/controller/utils/conditions.go).
  const conditions = (cd.status?.conditions ?? [])
    .map((c) => describeCondition(cd, c))
    .sort((a, b) => Number(b.problem) - Number(a.problem));
  return {
    hub,
    namespace: cd.metadata.namespace ?? '',
    name: cd.metadata.name,
    ...(cd.metadata.uid ? { uid: cd.metadata.uid } : {}),
    ...(cd.metadata.creationTimestamp ? { createdAt: cd.metadata.creationTimestamp } : {}),
    phase: phase.phase,
    ...(phase.reason ? { phaseReason: phase.reason } : {}),
    phaseMessage: phase.message,
    ...(phase.step ? { step: phase.step } : {}),
    installed: cd.spec.installed === true,
    powerState: {
      desired: cd.spec.powerState === 'Hibernating' ? 'Hibernating' : 'Running',
      ...(cd.status?.powerState ? { observed: cd.status.powerState } : {}),
    },
    ...(cd.spec.hibernateAfter ? { hibernateAfter: cd.spec.hibernateAfter } : {}),
    ...(cd.status?.apiURL ? { apiURL: cd.status.apiURL } : {}),
    ...consoleUrls(cd),
    ...(version ? { version } : {}),
    ...platformOf(cd),
    baseDomain: cd.spec.baseDomain,
    ...(pool ? { pool: { namespace: pool.namespace, name: pool.poolName } } : {}),
    ...(pool?.claimName
      ? { claim: { name: pool.claimName, ...(pool.claimedTimestamp ? { claimedAt: pool.claimedTimestamp } : {}) } }
      : {}),
    ...(deleteAfter ? { expiry: { deleteAfter, ...(expiry ? { expiresAt: expiry.toISOString() } : {}) } } : {}),
    protected: isTruthy(cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]),
    labels: cd.metadata.labels ?? {},
    problems: conditions
      .filter((c) => c.problem)
      .map((c) => ({ type: c.type, ...(c.reason ? { reason: c.reason } : {}), message: c.summary })),
    ...(opts.detail ? { conditions } : {}),
    ...(opts.detail && opts.raw ? { raw: cd } : {}),
  };
}
