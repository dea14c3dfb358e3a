// Worker dispatch: one BullMQ Worker per hub and class of work (slots.ts) runs handlers from a registry `{ type:
// handler }`, so background work never takes the slots kept for interactive work. Handlers get their checked
// payload and a JobContext (steps, abort signal, scoped log, child jobs); their errors go through outcome.ts once.
import {
  Queue,
  UnrecoverableError,
  WaitingChildrenError,
  WaitingError,
  Worker,
  type ConnectionOptions,
  type Job,
} from 'bullmq';
import type { JobsConfig } from '../config.js';
import type { Logger } from '../logger.js';
import {
  WAIT_FOR_CHILDREN,
  type JobContext,
  type JobEnd,
  type JobHandler,
  type JobStep,
  type OperationRecorder,
} from '../services/ports.js';
import type { Clock } from '../clock.js';
import { invalid } from '../hive/errors.js';
import type { JobDefinition } from '../services/job-definition.js';
import { JOB_CATALOG, payloadCheck, type JobCatalog } from './catalog.js';
import { runAs, WORK_CLASSES, type WorkClass } from '../work-class.js';
import { queueName } from './queue-names.js';
import { slotsOf, type HubSlots } from './slots.js';
import { flowContext } from './job-flow.js';
import { jobOptions } from './job-options.js';
import { progressOf, type JobData } from './job-view.js';
import { outcomeOf } from './outcome.js';

/** Steps kept per job; a job that loops on a state change must not grow its record without bound. */
const MAX_STEPS = 200;

export interface JobMetricsSink {
  jobFinished(type: string, outcome: 'completed' | 'failed', seconds: number, hub: string): void;
}

export interface WorkerPool {
  /** Stop taking jobs; let active ones finish for `jobs.shutdownGraceMs`, then hand them back to the queue. */
  close(): Promise<void>;
}

export interface WorkerDeps {
  connection: ConnectionOptions;
  prefix: string;
  hubs: readonly HubSlots[];
  handlers: Readonly<Record<string, JobHandler>>;
  jobs: JobsConfig;
  clock: Clock;
  log: Logger;
  metrics?: JobMetricsSink;
  /** Retry policies for the child jobs handlers fan out; default JOB_CATALOG (as the producer's). */
  catalog?: JobCatalog;
  /**
   * The job types this worker must run (JOB_DEFINITIONS in production): start-up fails naming each one without a
   * handler, and a payload that does not fit its type's schema fails its job for good, with the reason.
   */
  definitions?: readonly JobDefinition[];
  /** Told when a job that carries out an Operation starts and ends (its final outcome, not each retry). */
  operations?: OperationRecorder;
}

export async function startWorkers(deps: WorkerDeps): Promise<WorkerPool> {
  let closing = false;
  const catalog = deps.catalog ?? JOB_CATALOG;
  const payloads = payloadCheck(deps.definitions ?? []);
  const unhandled = payloads.types.filter((type) => !deps.handlers[type]);
  if (unhandled.length > 0) throw new Error(`no handler for the catalogued job types ${unhandled.join(', ')}`);
  // Producer-side handles on the queues: parents add their children through them, and the limits are set there.
  // Opened on first use.
  const childQueues = new Map<string, Queue>();
  const childQueue = (hub: string, cls: WorkClass) => {
    const name = queueName(hub, cls);
    let q = childQueues.get(name);
    if (!q) {
      if (!deps.hubs.some((h) => h.name === hub))
        throw invalid(
          'hub',
          `unknown hub ${JSON.stringify(hub)}; configured: ${deps.hubs.map((h) => h.name).join(', ')}`,
        );
      q = new Queue(name, { connection: deps.connection, prefix: deps.prefix });
      q.on('error', (err) => deps.log.warn({ err, hub, class: cls }, 'child job queue connection error'));
      childQueues.set(name, q);
    }
    return q;
  };
  const workers = deps.hubs.flatMap((hub) =>
    WORK_CLASSES.map((cls) => {
      const log = deps.log.child({ hub: hub.name, class: cls });
      const slots = slotsOf(hub, cls);
      const worker = new Worker<JobData>(
        queueName(hub.name, cls),
        async (job, token, signal) =>
          keepingOwnLock(job, token, log, () => run(job, token, signal, hub.name, cls, log)),
        {
          connection: deps.connection,
          prefix: deps.prefix,
          concurrency: slots.concurrency,
          // The lock is renewed every lockDuration/2 while the process lives, so long waits on Hive are fine; a
          // crashed worker's jobs go back to waiting once the lock lapses and the stalled check runs.
          lockDuration: deps.jobs.lockDurationMs,
          stalledInterval: deps.jobs.stalledIntervalMs,
          maxStalledCount: 2,
          // Started below, once this hub's global concurrency is in place.
          autorun: false,
        },
      );
      worker.on('error', (err) => log.warn({ err }, 'worker connection error'));
      return { hub, cls, slots, worker };
    }),
  );
  // Global concurrency lives in Redis and applies across every replica's workers for this hub and class. A flush, or
  // a Redis that restarts empty, drops it with everything else: it is written again at every stalled-job check.
  const limitGlobally = () =>
    Promise.all(
      workers.map(({ hub, cls, slots }) => childQueue(hub.name, cls).setGlobalConcurrency(slots.globalConcurrency)),
    );
  await Promise.all(workers.map(({ worker }) => worker.waitUntilReady()));
  await limitGlobally();
  for (const { hub, cls, worker } of workers) {
    worker.run().catch((err) => deps.log.error({ err, hub: hub.name, class: cls }, 'worker stopped unexpectedly'));
  }
  const relimit = setInterval(() => {
    limitGlobally().catch((err: unknown) => deps.log.debug({ err }, 'cannot write the global concurrency limits yet'));
  }, deps.jobs.stalledIntervalMs);
  relimit.unref();

  // Observed before BullMQ records the outcome, so a metric is never behind a caller that saw the job end.
  function observe(job: Job<JobData>, outcome: 'completed' | 'failed', hub: string) {
    deps.metrics?.jobFinished(job.name, outcome, (Date.now() - (job.processedOn ?? Date.now())) / 1000, hub);
  }

  // Runs of each job id in this process. After Redis lost a running job, the resync queues it again under the same
  // id, and the new run may land here while the lost one still goes on. BullMQ keeps one lock entry per job id, so
  // the first run's end drops the second run's lock renewal: that run would stall and run again. A run that starts
  // beside a namesake renews its own lock (Job.extendLock, BullMQ's public API) until it ends.
  const runningIds = new Map<string, number>();

  async function keepingOwnLock(
    job: Job<JobData>,
    token: string | undefined,
    log: Logger,
    work: () => Promise<unknown>,
  ): Promise<unknown> {
    const id = job.id!;
    const namesakes = runningIds.get(id) ?? 0;
    runningIds.set(id, namesakes + 1);
    const lockMs = deps.jobs.lockDurationMs;
    const renew =
      namesakes > 0 && token
        ? setInterval(() => {
            job.extendLock(token, lockMs).catch((err: unknown) => log.debug({ err, jobId: id }, 'lock not extended'));
          }, lockMs / 2)
        : undefined;
    try {
      return await work();
    } finally {
      if (renew) clearInterval(renew);
      const left = (runningIds.get(id) ?? 1) - 1;
      if (left > 0) runningIds.set(id, left);
      else runningIds.delete(id);
    }
  }

  async function run(
    job: Job<JobData>,
    token: string | undefined,
    signal: AbortSignal | undefined,
    hub: string,
    cls: WorkClass,
    hubLog: Logger,
  ): Promise<unknown> {
    const log = hubLog.child({ job: job.name, jobId: job.id });
    const handler = deps.handlers[job.name];
    if (!handler) throw new UnrecoverableError(`no handler for job type ${job.name}`);
    const progress = progressOf(job);
    const steps: JobStep[] = [...progress.steps];
    // Steps and the handler's own progress share BullMQ's one progress value: each write carries both.
    let howFar = progress.progress;
    const kept = () => ({ steps, ...(howFar ? { progress: howFar } : {}) });
    const step: JobContext['step'] = async (name, message) => {
      steps.push({ step: name, ...(message ? { message } : {}), at: new Date(deps.clock.now()).toISOString() });
      if (steps.length > MAX_STEPS) steps.splice(0, steps.length - MAX_STEPS);
      await job.updateProgress(kept());
    };
    const reportProgress: NonNullable<JobContext['progress']> = async (p) => {
      howFar = p;
      await job.updateProgress(kept());
    };
    const ctx: JobContext = {
      jobId: job.id!,
      attempt: job.attemptsMade + 1,
      finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
      signal: signal ?? new AbortController().signal,
      log,
      step,
      progress: reportProgress,
      // Children run in their parent's class: the per-cluster jobs of a run someone asked for are what they wait on.
      ...flowContext(job, token, {
        queueFor: (childHub) => childQueue(childHub, cls),
        options: (type) => jobOptions(catalog, deps.jobs, type, cls),
        step,
        checkPayload: payloads.assert,
      }),
    };
    // Recorded before BullMQ records the end, so whoever sees the job ended finds its Operation ended too.
    const recorder = job.data.operation ? deps.operations : undefined;
    const ended = (end: JobEnd) => recorder?.ended(job.id!, end);
    try {
      log.info({ attempt: ctx.attempt }, 'job started');
      await recorder?.started(job.id!);
      const payload = job.data.payload ?? {};
      payloads.assertKept(job.name, payload);
      // In its class, so the hub's rate limiter serves the jobs people wait on before the scheduler's own.
      const result = await runAs(cls, () => handler(payload, ctx));
      if (result === WAIT_FOR_CHILDREN) {
        log.info({}, 'job waiting for its children'); // not an outcome: it runs again, slot-free, once they ended
        throw new WaitingChildrenError();
      }
      log.info({}, 'job completed');
      observe(job, 'completed', hub);
      await ended({ state: 'completed', result: result ?? null });
      return result ?? null;
    } catch (err) {
      if (err instanceof WaitingChildrenError) throw err;
      if (closing && signal?.aborted && token) {
        // Shutting down: hand the job back untouched (no attempt spent) so another worker resumes it.
        log.info({}, 'job handed back at shutdown');
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const outcome = outcomeOf(err);
      if (outcome.kind === 'done') {
        log.info({ message: outcome.result }, 'job target is gone; nothing to do');
        observe(job, 'completed', hub);
        await ended({ state: 'completed', result: outcome.result });
        return outcome.result;
      }
      await job.updateProgress({ ...kept(), reason: outcome.reason });
      if (outcome.kind === 'give-up') {
        log.warn({ reason: outcome.reason, message: outcome.message }, 'job failed without retry');
        observe(job, 'failed', hub);
        await ended({ state: 'failed', error: { message: outcome.message, reason: outcome.reason } });
        throw new UnrecoverableError(outcome.message);
      }
      log.warn({ reason: outcome.reason, message: outcome.message, attempt: ctx.attempt }, 'job attempt failed');
      if (outcome.reason === 'InternalError') log.error({ err }, 'unexpected error in job handler');
      if (ctx.attempt >= (job.opts.attempts ?? 1)) {
        observe(job, 'failed', hub);
        await ended({ state: 'failed', error: { message: outcome.message, reason: outcome.reason } });
      }
      throw err;
    }
  }

  return {
    async close() {
      closing = true;
      clearInterval(relimit);
      const grace = setTimeout(() => {
        for (const { worker } of workers) worker.cancelAllJobs('shutting down');
      }, deps.jobs.shutdownGraceMs);
      try {
        await Promise.all(workers.map(({ worker }) => worker.close()));
      } finally {
        clearTimeout(grace);
        await Promise.all([...childQueues.values()].map((q) => q.close()));
      }
    },
  };
}
