// The queue's port: what a use case enqueues and reads (JobQueue, JobSpec, JobView), and what a job handler gets
// (JobContext) and answers. The queue module (src/jobs) implements it; ports.ts re-exports it beside the others.
import type { KindName, ServiceLog } from './ports.js';

export type JobState =
  'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'waiting-children' | 'prioritized' | 'unknown';

export interface JobStep {
  /** A short label, e.g. a Hive power state `WaitingForNodes`. */
  step: string;
  message?: string;
  at: string;
}

export interface JobTarget {
  kind: KindName;
  hub: string;
  namespace?: string;
  name: string;
}

/** How far a job that works through many items is: a schedule sweep reports it at least every second. */
export interface JobProgress {
  /** Items finished (whatever their outcome) of `total`. */
  done: number;
  total: number;
  /** Finished items by outcome, e.g. `{ acted, skipped, failed }`. */
  counts?: Record<string, number>;
}

export interface JobView {
  id: string;
  type: string;
  state: JobState;
  target?: JobTarget;
  steps: JobStep[];
  /** Set while (and after) a job reports how far it is (JobContext.progress). */
  progress?: JobProgress;
  result?: unknown;
  error?: { message: string; reason?: string };
  attempts: number;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /**
   * `kubernetes`: Redis has no record of this job (lost in a flush or restart, or not queued yet), so the view is
   * built from its Operation and the target as Kubernetes shows it. Absent for views from Redis.
   */
  source?: 'kubernetes';
}

export interface EnqueueOptions {
  /** While a job with this id is waiting or active, enqueueing again returns that job (no `:` allowed). */
  dedupId?: string;
  /** Fixed job id, for work that must happen at most once ever (e.g. a schedule tick). No `:` allowed. */
  jobId?: string;
  delayMs?: number;
  /** The queue partition; per-hub queues give per-hub concurrency limits. Defaults to the target's hub. */
  hub?: string;
  parent?: { id: string; queue: string };
  /** The job carries out an Operation of the same name: the worker records its end there. */
  operation?: boolean;
}

declare const JOB: unique symbol;

/**
 * A job to enqueue: its type and a payload that fits the type's schema. Only `jobOf` (services/job-definition.ts)
 * makes one, from a job definition and a payload the compiler checks against it, or `keptJob`, from a type and
 * payload Beekeeper kept (an Operation's spec), which the queue checks; a bare type string is not a job.
 */
export interface JobSpec {
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly [JOB]: true;
}

export interface JobQueue {
  /**
   * Throws what enqueue would before anything else is written: Unavailable while Redis is down, Invalid for a
   * payload carrying a secret. Requests that write to Kubernetes before they enqueue check this first.
   */
  assertAccepting(payload: Record<string, unknown>): Promise<void>;
  enqueue(job: JobSpec, opts?: EnqueueOptions & { target?: JobTarget }): Promise<JobView>;
  get(id: string): Promise<JobView | undefined>;
  list(filter?: { state?: JobState; type?: string; limit?: number; offset?: number }): Promise<JobView[]>;
  /** Resolve when the job ends or `timeoutMs` passes, with the job as it is then. */
  waitUntilDone(id: string, timeoutMs: number): Promise<JobView>;
  /** Every change of one job (progress, completion, failure). Returns an unsubscribe function. */
  watch(id: string, listener: (job: JobView) => void): () => void;
  /**
   * Run a finished job again under its own id, with its attempts reset (re-adding a fixed id BullMQ still keeps is
   * a no-op). Undefined when Redis has no such job; a job not finished is returned as it is.
   */
  retry(id: string): Promise<JobView | undefined>;
}

/** A job a handler fans out with `JobContext.waitForChildren`. */
export interface ChildJobSpec extends JobSpec {
  /**
   * Names the child among its parent's children and must be the same on every run (letters, digits, `.`, `_`,
   * `-`): the child's job id is derived from the parent's id and this key, so a re-run never adds a duplicate.
   */
  key: string;
  /** The child's queue partition (per-hub concurrency applies). Defaults to the target's hub. */
  hub?: string;
  target?: JobTarget;
}

/** What `waitForChildren` answers while the children run: the handler returns it, and runs again once they ended. */
export const WAIT_FOR_CHILDREN: unique symbol = Symbol('wait for children');
export type WaitForChildren = typeof WAIT_FOR_CHILDREN;

/** How a child ended. A failed child (after all its attempts) does not fail its parent. */
export type ChildOutcome =
  | { key: string; id: string; state: 'completed'; result: unknown }
  | { key: string; id: string; state: 'failed'; error: string };

/** What a job handler gets besides its payload. */
export interface JobContext {
  jobId: string;
  attempt: number;
  /** No retry follows if this run fails, whatever the error (the catalog's attempts are spent). */
  finalAttempt?: boolean;
  /** Record a progress step; callers see it in GET /v1/jobs/{id} and the SSE stream. */
  step(step: string, message?: string): Promise<void>;
  /**
   * Record how far the job is (one Redis write; callers see it in GET /v1/jobs/{id} and the SSE stream). Kept
   * with the steps. The worker always provides it (optional only so that hand-made contexts may leave it out).
   */
  progress?(progress: JobProgress): Promise<void>;
  signal: AbortSignal;
  log: ServiceLog;
  /**
   * Run `fn` once per job and keep its result (JSON) in the job: later runs of the same job (after its children
   * ended, a retry, a crashed worker) get the kept result without running `fn` again. A crash between `fn` and
   * the save runs it again, so `fn` must be safe to repeat. The worker always provides it (optional only so that
   * hand-made contexts in tests may leave it out).
   */
  once?<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Fan out child jobs and wait for every one of them without holding a worker slot. The first call adds the
   * children (each on its own hub's queue), records `waiting` as a step and answers WAIT_FOR_CHILDREN: the handler
   * returns that as it is, which ends this run, and the job shows `waiting-children`. Once every child has ended
   * the job runs again from the top, and the same call answers the outcomes in the order given. So everything
   * before the call must produce the same children on every run: compute them in `once`.
   * The worker always provides it (optional only so that hand-made contexts in tests may leave it out).
   */
  waitForChildren?(
    children: ChildJobSpec[],
    waiting?: { step: string; message?: string },
  ): Promise<ChildOutcome[] | WaitForChildren>;
}

/** How a job ended, for its Operation. */
export type JobEnd =
  { state: 'completed'; result: unknown } | { state: 'failed'; error: { message: string; reason?: string } };

/**
 * Where the worker reports the start and the end of a job that carries out an Operation (services/operations):
 * one place for every job type, never in each handler. Never throws: a lost write is repaired by the resync.
 */
export interface OperationRecorder {
  started(jobId: string): Promise<void>;
  ended(jobId: string, end: JobEnd): Promise<void>;
}

export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<unknown>;
