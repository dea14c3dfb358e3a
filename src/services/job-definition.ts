// A job type, said once: its name, the TypeBox schema of its payload and how it retries. Each service declares its
// definitions beside its handlers; src/jobs/catalog.ts lists them all. The queue checks a payload against its
// definition when it is enqueued (a mismatch is a programming error: it throws) and when the worker takes it (a
// payload Redis kept from another version, or one written by hand, fails the job for good with the reason).
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { WorkClass } from '../work-class.js';
import type { JobSpec, JobContext, JobHandler } from './ports.js';

export interface JobPolicy {
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

/**
 * Background priorities: a schedule's sweep first (one job acts on every cluster of an edge, and an edge often comes
 * with many single-cluster jobs queued at the same moment, such as install grace periods lapsing: behind them the
 * sweep started seconds late), then a single cluster's edge and a lapsed heartbeat, then policies, then warnings.
 */
export const BACKGROUND_PRIORITY = { sweeps: 1, edges: 2, policies: 5, warnings: 10 } as const;

export interface JobDefinition<S extends TSchema = TSchema> {
  type: string;
  payload: S;
  /** What it leaves out is DEFAULT_JOB_POLICY's. */
  policy: Partial<JobPolicy>;
  /** Why the payload does not fit the schema (each field and reason), undefined when it does. */
  check(payload: unknown): string | undefined;
}

export type PayloadOf<D extends JobDefinition> = Static<D['payload']>;

/** A job type and the handler the worker runs for it: the one way a feature registers its jobs. */
export interface JobRegistration {
  job: JobDefinition;
  handle: JobHandler;
}

export function defineJob<S extends TSchema>(def: { type: string; payload: S } & Partial<JobPolicy>): JobDefinition<S> {
  const { type, payload, ...policy } = def;
  const validator = Compile(payload);
  return {
    type,
    payload,
    policy,
    check(value) {
      if (validator.Check(value)) return undefined;
      const issues = [...validator.Errors(value)].map((e) => `${e.instancePath || '/'} ${e.message}`);
      return `the ${type} payload does not fit its schema: ${issues.join('; ')}`;
    },
  };
}

/** Registers `handle` for `job`; the worker has checked the payload against the job's schema before it calls it. */
export function handleJob<S extends TSchema>(
  job: JobDefinition<S>,
  handle: (payload: Static<S>, ctx: JobContext) => Promise<unknown>,
): JobRegistration {
  return { job, handle: (payload, ctx) => handle(payload as Static<S>, ctx) };
}

/** The fields naming one namespaced object on one hub, which most payloads start with. */
export const refFields = () => ({
  hub: Type.String({ minLength: 1 }),
  namespace: Type.String(),
  name: Type.String({ minLength: 1 }),
});

/**
 * What a producer enqueues (`queue.enqueue(jobOf(J, payload))`, an Operation's intent, a fixed job, a child): the
 * type from its definition and a payload the compiler checks against the definition's schema.
 */
export function jobOf<S extends TSchema>(job: JobDefinition<S>, payload: Static<S>): JobSpec {
  return { type: job.type, payload: { ...(payload as Record<string, unknown>) } } as JobSpec;
}

/**
 * A job Beekeeper kept as data (an Operation's spec, written from a `jobOf` when its request was accepted) and
 * enqueues again: the compiler cannot check it, so the queue checks its payload against the type's schema.
 */
export function keptJob(type: string, payload: Record<string, unknown>): JobSpec {
  return { type, payload } as JobSpec;
}
