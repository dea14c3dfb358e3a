// The job catalog: how each job type retries, and which class of work it is. A type missing here (or a field an
// entry leaves out) gets DEFAULT_JOB_TYPE's. Feature teams add their types below when the default does not fit
// (e.g. a create that must not be retried blindly, or work someone waits on).

import type { WorkClass } from '../work-class.js';

export interface JobTypeSpec {
  /** Total tries, the first included. Only transient errors (Conflict, Unavailable, unknown) use them. */
  attempts: number;
  /** First retry delay; doubles each retry (BullMQ exponential backoff), with jitter. */
  backoffMs: number;
  /** `interactive`: someone waits on it (a request's job). `background`: the scheduler's own work. Each class has a
   * queue per hub with its own slots, so background work never takes the slots user requests need. */
  class: WorkClass;
  /** Order among waiting background jobs, 1 first. Interactive jobs run in arrival order. */
  priority: number;
}

export type JobCatalog = Readonly<Record<string, Partial<JobTypeSpec>>>;

// Unlisted work is background: a type that forgot to say it is interactive runs late, while one that forgot to
// say it is background would take the slots kept for people.
export const DEFAULT_JOB_TYPE: JobTypeSpec = { attempts: 6, backoffMs: 2000, class: 'background', priority: 10 };

/** Background priorities: an edge's power changes and a lapsed heartbeat first, then policies, then warnings. */
const EDGES = 1;
const POLICIES = 5;
const WARNINGS = 10;

export const JOB_CATALOG: JobCatalog = {
  // Power changes and deletes converge (they patch a desired state and wait), so retrying is always safe.
  'cluster.hibernate': { attempts: 8, backoffMs: 2000, class: 'interactive' },
  'cluster.resume': { attempts: 8, backoffMs: 2000, class: 'interactive' },
  'cluster.delete': { attempts: 8, backoffMs: 2000, class: 'interactive' },
  'cluster.create': { attempts: 5, backoffMs: 3000, class: 'interactive' },
  'claim.release': { class: 'interactive' },
  'pool.delete': { class: 'interactive' },
  // Schedules: a sweep keeps its plan in the job and its per-cluster children have fixed ids, so a retry converges;
  // the runs that only wait for children spend no attempt. A run asked for through the API is the same sweep, as
  // interactive work; children run in their parent's class.
  'schedule.run': { attempts: 3, backoffMs: 5000, class: 'interactive' },
  'schedule.sweep': { attempts: 3, backoffMs: 5000, class: 'background', priority: EDGES },
  'schedule.apply': { attempts: 8, backoffMs: 2000, class: 'background', priority: EDGES },
  'schedule.reconcile-cluster': { class: 'background', priority: EDGES },
  // A claim whose heartbeat lapsed holds a cluster nobody uses: give it back before anything slower.
  'claim.heartbeat-expired': { class: 'background', priority: EDGES },
  'expiry.enforce-policy': { class: 'background', priority: POLICIES },
  // A receiver may be down for a while: ten tries over about half an hour; delivered endpoints are not re-sent.
  'expiry.warn': { attempts: 10, backoffMs: 3000, class: 'background', priority: WARNINGS },
};

export function jobTypeSpec(catalog: JobCatalog, type: string): JobTypeSpec {
  return { ...DEFAULT_JOB_TYPE, ...catalog[type] };
}
