// The job catalog: every job type Beekeeper runs, as its service declared it (name, payload schema, retries, class
// and priority; services/job-definition.ts). A type missing here (or a field a definition leaves out) gets
// DEFAULT_JOB_TYPE's. The worker refuses to start while a type listed here has no handler.
import { CLAIM_RELEASE_JOB } from '../services/claims/claim-release.js';
import { HEARTBEAT_EXPIRED_JOB } from '../services/claims/heartbeat-expired.js';
import { CREATE_JOB, DELETE_JOB, HIBERNATE_JOB, RESUME_JOB } from '../services/clusters/cluster-jobs.js';
import { ENFORCE_POLICY_JOB } from '../services/expiry/expiry-service.js';
import { WARN_JOB } from '../services/expiry/warn.js';
import { Invalid } from '../hive/errors.js';
import type { JobDefinition, JobPolicy } from '../services/job-definition.js';
import { POOL_DELETE_JOB } from '../services/pools/pool-service.js';
import { RELOCATION_RUN_JOB } from '../services/relocations/relocation-jobs.js';
import { APPLY_JOB, RECONCILE_CLUSTER_JOB, RUN_JOB, SWEEP_JOB } from '../services/schedules/schedule-jobs.js';

export type JobTypeSpec = JobPolicy;

/** Retries per type; tests pass their own to shorten them. */
export type JobCatalog = Readonly<Record<string, Partial<JobTypeSpec>>>;

// Unlisted work is background: a type that forgot to say it is interactive runs late, while one that forgot to
// say it is background would take the slots kept for people.
export const DEFAULT_JOB_TYPE: JobTypeSpec = { attempts: 6, backoffMs: 2000, class: 'background', priority: 10 };

export const JOB_DEFINITIONS: readonly JobDefinition[] = [
  CREATE_JOB,
  HIBERNATE_JOB,
  RESUME_JOB,
  DELETE_JOB,
  CLAIM_RELEASE_JOB,
  HEARTBEAT_EXPIRED_JOB,
  POOL_DELETE_JOB,
  SWEEP_JOB,
  RUN_JOB,
  APPLY_JOB,
  RECONCILE_CLUSTER_JOB,
  ENFORCE_POLICY_JOB,
  WARN_JOB,
  RELOCATION_RUN_JOB,
];

export const JOB_CATALOG: JobCatalog = Object.fromEntries(JOB_DEFINITIONS.map((d) => [d.type, d.policy]));

export function jobTypeSpec(catalog: JobCatalog, type: string): JobTypeSpec {
  return { ...DEFAULT_JOB_TYPE, ...catalog[type] };
}

/** Every definition by type; throws naming a type declared twice. */
export function definitionsByType(definitions: readonly JobDefinition[]): ReadonlyMap<string, JobDefinition> {
  const byType = new Map<string, JobDefinition>();
  for (const d of definitions) {
    if (byType.has(d.type)) throw new Error(`job type ${d.type} is defined twice`);
    byType.set(d.type, d);
  }
  return byType;
}

/** Payloads checked against their type's schema; a type not among `definitions` is not checked. */
export function payloadCheck(definitions: readonly JobDefinition[]) {
  const byType = definitionsByType(definitions);
  const problem = (type: string, payload: unknown) => byType.get(type)?.check(payload);
  return {
    types: [...byType.keys()],
    problem,
    /** For producers: a payload that does not fit is a programming error. */
    assert(type: string, payload: unknown): void {
      const found = problem(type, payload);
      if (found) throw new Error(found);
    },
    /** For the worker: a payload kept in Redis was written by any version (or by hand); one that does not fit is
     * Invalid, so its job fails at once instead of retrying. */
    assertKept(type: string, payload: unknown): void {
      const found = problem(type, payload);
      if (found) throw new Invalid(found);
    },
  };
}
