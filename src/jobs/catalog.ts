// The job catalog: how each job type retries. A type missing here gets DEFAULT_JOB_TYPE. Feature teams add their
// types below when the default does not fit (e.g. a create that must not be retried blindly).

export interface JobTypeSpec {
  /** Total tries, the first included. Only transient errors (Conflict, Unavailable, unknown) use them. */
  attempts: number;
  /** First retry delay; doubles each retry (BullMQ exponential backoff), with jitter. */
  backoffMs: number;
}

export type JobCatalog = Readonly<Record<string, JobTypeSpec>>;

export const DEFAULT_JOB_TYPE: JobTypeSpec = { attempts: 6, backoffMs: 2000 };

export const JOB_CATALOG: JobCatalog = {
  // Power changes and deletes converge (they patch a desired state and wait), so retrying is always safe.
  'cluster.hibernate': { attempts: 8, backoffMs: 2000 },
  'cluster.resume': { attempts: 8, backoffMs: 2000 },
  'cluster.delete': { attempts: 8, backoffMs: 2000 },
  'cluster.create': { attempts: 5, backoffMs: 3000 },
  // Schedules: a sweep keeps its plan in the job and its per-cluster children have fixed ids, so a retry converges;
  // the runs that only wait for children spend no attempt.
  'schedule.sweep': { attempts: 3, backoffMs: 5000 },
  'schedule.apply': { attempts: 8, backoffMs: 2000 },
  // A receiver may be down for a while: ten tries over about half an hour; delivered endpoints are not re-sent.
  'expiry.warn': { attempts: 10, backoffMs: 3000 },
};

export function jobTypeSpec(catalog: JobCatalog, type: string): JobTypeSpec {
  return catalog[type] ?? DEFAULT_JOB_TYPE;
}
