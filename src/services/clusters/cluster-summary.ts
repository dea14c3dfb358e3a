// The one-page view of a ClusterDeployment a person can read, built from Hive's own fields (REFERENCE.md §2).
import { ANNOTATIONS, CONDITIONS, LABELS, POSITIVE_POLARITY_CONDITIONS } from '../../hive/constants.js';
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
  /** True when Hive counts this status as undesired, given the condition's polarity (REFERENCE.md §2.3). */
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
  conditions: ConditionSummary[];
  raw?: ClusterDeployment;
}

function platformOf(cd: ClusterDeployment): { platform?: string; region?: string } {
  const [name, spec] = Object.entries(cd.spec.platform ?? {}).find(([, v]) => v !== undefined) ?? [];
  const region = (spec as { region?: string } | undefined)?.region ?? cd.metadata.labels?.[LABELS.clusterRegion];
  return { platform: cd.metadata.labels?.[LABELS.clusterPlatform] ?? name, ...(region ? { region } : {}) };
}

function describeCondition(c: Condition): ConditionSummary {
  const positive = POSITIVE_POLARITY_CONDITIONS.includes(c.type);
  const problem = c.status !== 'Unknown' && (positive ? c.status === 'False' : c.status === 'True');
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

export function summarize(hub: string, cd: ClusterDeployment, opts: { raw?: boolean } = {}): ClusterSummary {
  const phase = lifecyclePhase(cd);
  const deleteAfter = cd.metadata.annotations?.[ANNOTATIONS.deleteAfter];
  const expiry = deleteAfter ? expiresAt(cd.metadata.creationTimestamp ?? '', deleteAfter) : undefined;
  const pool = cd.spec.clusterPoolRef;
  const version = cd.metadata.labels?.[LABELS.version] ?? cd.status?.installVersion;
  // Problems first, then the rest, the way Hive sorts them (pkg/controller/utils/conditions.go).
  const conditions = (cd.status?.conditions ?? []).map(describeCondition).sort((a, b) => Number(b.problem) - Number(a.problem));
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
    ...(cd.status?.webConsoleURL ? { consoleURL: cd.status.webConsoleURL } : {}),
    ...(version ? { version } : {}),
    ...platformOf(cd),
    baseDomain: cd.spec.baseDomain,
    ...(pool ? { pool: { namespace: pool.namespace, name: pool.poolName } } : {}),
    ...(pool?.claimName ? { claim: { name: pool.claimName, ...(pool.claimedTimestamp ? { claimedAt: pool.claimedTimestamp } : {}) } } : {}),
    ...(deleteAfter ? { expiry: { deleteAfter, ...(expiry ? { expiresAt: expiry.toISOString() } : {}) } } : {}),
    protected: isTruthy(cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]),
    labels: cd.metadata.labels ?? {},
    conditions,
    ...(opts.raw ? { raw: cd } : {}),
  };
}

/** True when Hive counts the cluster as provisioned (for filters and the create job). */
export const isProvisioned = (cd: ClusterDeployment) =>
  cd.spec.installed === true || cd.status?.conditions?.some((c) => c.type === CONDITIONS.provisioned && c.status === 'True') === true;
