// Checking a claim request before anything is written: every problem names its field (ARCHITECTURE.md, errors).
import type { PoolSelector } from '../../hive/pools/pool-selector.js';
import { invalid } from '../../hive/errors.js';
import { isDnsLabel } from '../../hive/names.js';

export interface SubjectRequest {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
}

export interface ClaimRequest {
  /** `hub/namespace/name`, `namespace/name` or `name` when unique across hubs. */
  pool?: string;
  /** Or: pick the best pool by attributes across pools and hubs. */
  selector?: PoolSelector;
  /** The claim's name; generated from the pool's name when absent. */
  name?: string;
  /** Go duration, counted from when Hive hands over the cluster. */
  lifetime?: string;
  /** Who gets Hive's `hive-claim-owner` Role on the cluster's namespace. */
  subjects?: SubjectRequest[];
  /** Release the claim when no heartbeat arrives for this long (Go duration, at least 1m). */
  heartbeatTimeout?: string;
}

export function checkName(name: string, field: string): void {
  if (!isDnsLabel(name)) {
    throw invalid(
      field,
      `"${name}" must be a DNS label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
}

/** Hive's RBAC subjects (REFERENCE.md §5): users and groups in the rbac API group, service accounts in core. */
export function hiveSubjects(subjects: SubjectRequest[] | undefined) {
  return (subjects ?? []).map((s, i) => {
    if (!s.name) throw invalid(`subjects[${i}].name`, 'is required');
    if (s.kind === 'ServiceAccount') {
      if (!s.namespace) throw invalid(`subjects[${i}].namespace`, 'a ServiceAccount subject needs its namespace');
      return { kind: s.kind, name: s.name, namespace: s.namespace };
    }
    if (s.kind !== 'User' && s.kind !== 'Group')
      throw invalid(`subjects[${i}].kind`, 'must be User, Group or ServiceAccount');
    return { kind: s.kind, apiGroup: 'rbac.authorization.k8s.io', name: s.name };
  });
}

/** Each subject once (the caller may also name itself in the request). */
export function uniqueSubjects<S extends { kind: string; name: string; namespace?: string }>(subjects: S[]): S[] {
  const seen = new Set<string>();
  return subjects.filter((s) => {
    const key = `${s.kind}/${s.namespace ?? ''}/${s.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function checkClaimRequest(req: ClaimRequest): void {
  if ((req.pool === undefined) === (req.selector === undefined)) {
    throw invalid('pool', 'give exactly one of pool (a named pool) or selector (attributes to pick a pool by)');
  }
  if (req.name !== undefined) checkName(req.name, 'name');
}
