// The BullMQ implementation of the JobQueue port (producer side): enqueue, read, list, wait and watch. Two queues
// per hub, one per class of work (see ids.ts); a job goes to its type's class (catalog.ts). The worker side is in
// worker.ts.
import { Queue, type ConnectionOptions, type Job, type JobType } from 'bullmq';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { JobsConfig } from '../config.js';
import { invalid, NotFound, Unavailable } from '../hive/errors.js';
import type { Logger } from '../logger.js';
import { isRedisDown, type RedisClient } from '../redis/connect.js';
import type { EnqueueOptions, JobQueue, JobSpec, JobState, JobTarget, JobView } from '../services/ports.js';
import type { JobDefinition } from '../services/job-definition.js';
import { JOB_CATALOG, jobTypeSpec, payloadCheck, type JobCatalog } from './catalog.js';
import { WORK_CLASSES, type WorkClass } from '../work-class.js';
import { createJobEvents } from './job-events.js';
import { jobOptions } from './job-options.js';
import { jobIds } from '../services/job-ids.js';
import { queueName } from './queue-names.js';
import { FINAL_STATES, toJobView, type JobData } from './job-view.js';
import { assertNoSecrets } from './payload-guard.js';
import { ALL_STATES, bullStates } from './job-states.js';
import { countInFlightByType, countJobs, IN_FLIGHT_CAP, type InFlightCount, type JobCount } from './job-counts.js';

export interface BullJobQueue extends JobQueue {
  readonly hubs: readonly string[];
  /** Jobs per hub, class and state, for metrics. */
  counts(): Promise<JobCount[]>;
  /** Unfinished jobs per hub, class, type and state, for metrics; at most IN_FLIGHT_CAP jobs are read per queue and state. */
  inFlightByType(): Promise<InFlightCount[]>;
  /** bull-board adapters, one per queue (each hub's interactive queue, then its background one). */
  boardQueues(): BullMQAdapter[];
  close(): Promise<void>;
}

export interface JobQueueDeps {
  /** Fail-fast client for Queue objects (producer flavour of src/redis/connect.ts). */
  producer: RedisClient;
  /** Waiting, reconnecting connection for the event readers (worker flavour). */
  listener: ConnectionOptions;
  prefix: string;
  hubs: readonly string[];
  /** Where jobs without a hub or target go (the state hub). */
  defaultHub: string;
  jobs: JobsConfig;
  catalog?: JobCatalog;
  /** The payload schemas enqueue checks against (JOB_DEFINITIONS in production); types not listed are not checked. */
  definitions?: readonly JobDefinition[];
  log: Logger;
}

export function createJobQueue(deps: JobQueueDeps): BullJobQueue {
  const catalog = deps.catalog ?? JOB_CATALOG;
  const payloads = payloadCheck(deps.definitions ?? []);
  /** Every queue by name, each hub's interactive queue before its background one. */
  const queues = new Map<string, Queue>();
  const located = new Map<Queue, { hub: string; cls: WorkClass }>();
  // Every queue shares the producer's connection and reports each reconnect attempt: a lost connection is logged
  // once, not per queue every few seconds (issue 9's 60 s outage), and its return once.
  let connectionLost = false;
  const onReady = () => {
    if (connectionLost) deps.log.info({}, 'job queue connection back');
    connectionLost = false;
  };
  deps.producer.on('ready', onReady);
  const connectionError = (hub: string, cls: WorkClass) => (err: Error) => {
    if (connectionLost && isRedisDown(err)) return;
    connectionLost = isRedisDown(err);
    deps.log.warn(
      { err, hub, class: cls },
      connectionLost ? 'job queue connection error; not logged again until it is back' : 'job queue connection error',
    );
  };
  for (const hub of deps.hubs) {
    for (const cls of WORK_CLASSES) {
      const queue = new Queue(queueName(hub, cls), { connection: deps.producer, prefix: deps.prefix });
      queue.on('error', connectionError(hub, cls));
      queues.set(queue.name, queue);
      located.set(queue, { hub, cls });
    }
  }
  const events = createJobEvents({
    connection: deps.listener,
    redis: deps.producer,
    prefix: deps.prefix,
    queues,
    log: deps.log,
  });

  // Producers fail fast while Redis is down (BullMQ would wait for the connection), so an API caller gets a 503
  // with Retry-After at once and services see a domain error they already handle.
  const storeDown = (cause?: unknown) =>
    new Unavailable('the job store (Redis) is unavailable; retry shortly', 5, { cause });
  const guarded =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (deps.producer.status !== 'ready') throw storeDown();
      try {
        return await fn(...args);
      } catch (err) {
        throw isRedisDown(err) ? storeDown(err) : err;
      }
    };

  const queueFor = (hub: string, cls: WorkClass) => {
    const q = deps.hubs.includes(hub) ? queues.get(queueName(hub, cls)) : undefined;
    if (!q) throw invalid('hub', `unknown hub ${JSON.stringify(hub)}; configured: ${deps.hubs.join(', ')}`);
    return q;
  };
  /** The queues a job id may be in: its hub's, interactive first (a user waiting on a job asks about those). */
  const candidates = (id: string): Queue[] => {
    const hub = jobIds.hubOf(id);
    return hub && deps.hubs.includes(hub) ? WORK_CLASSES.map((cls) => queues.get(queueName(hub, cls))!) : [];
  };
  const locate = async (id: string): Promise<{ queue: Queue; state: JobState } | undefined> => {
    for (const queue of candidates(id)) {
      const state = await queue.getJobState(id);
      if (state !== 'unknown') return { queue, state };
    }
    return undefined;
  };

  // State first, then the record: the record is then at least as new as the state, so a finished state always
  // comes with its result or error (the other order can pair `completed` with a pre-completion record).
  const viewIn = async (queue: Queue, id: string, known?: JobState): Promise<JobView | undefined> => {
    const state = known ?? (await queue.getJobState(id));
    const job: Job<JobData> | undefined = await queue.getJob(id);
    return job ? toJobView(job, state) : undefined;
  };
  const get = guarded(async (id: string): Promise<JobView | undefined> => {
    const found = await locate(id);
    return found ? viewIn(found.queue, id, found.state) : undefined;
  });

  const watch = (id: string, listener: (job: JobView) => void): (() => void) => {
    // Both of the hub's queues: the job may not exist yet, and its type (so its queue) is not in its id.
    const watched = candidates(id).map((q) => q.name);
    let stopped = false;
    let unsubscribe: (() => void) | undefined;
    let last = '';
    // Re-reads are chained so listeners see changes in order, and identical views are not repeated.
    let chain = Promise.resolve();
    const refresh = () => {
      chain = chain.then(async () => {
        if (stopped) return;
        const v = await get(id).catch(() => undefined);
        const text = JSON.stringify(v);
        if (!v || stopped || text === last) return;
        last = text;
        listener(v);
      });
    };
    if (watched.length > 0) {
      events
        .subscribe(watched, id, refresh)
        .then((unsub) => {
          if (stopped) unsub();
          else {
            unsubscribe = unsub;
            refresh();
          }
        })
        .catch((err) => deps.log.warn({ err, jobId: id }, 'cannot watch job'));
    }
    return () => {
      stopped = true;
      unsubscribe?.();
    };
  };

  return {
    hubs: deps.hubs,

    // A round trip, not only the client's status: a connection Redis dropped a moment ago still looks ready.
    assertAccepting: guarded(async (payload: Record<string, unknown>) => {
      assertNoSecrets(payload);
      await deps.producer.ping();
    }),

    enqueue: guarded(async ({ type, payload }: JobSpec, opts: EnqueueOptions & { target?: JobTarget } = {}) => {
      assertNoSecrets(payload);
      // A producer and its type's schema disagree: a programming error, not the caller's.
      payloads.assert(type, payload);
      if (opts.jobId) jobIds.check('jobId', opts.jobId);
      if (opts.dedupId) jobIds.check('dedupId', opts.dedupId);
      const hub = opts.hub ?? opts.target?.hub ?? deps.defaultHub;
      const cls = jobTypeSpec(catalog, type).class;
      const queue = queueFor(hub, cls);
      const data: JobData = {
        payload,
        ...(opts.target ? { target: opts.target } : {}),
        ...(opts.operation ? { operation: true } : {}),
      };
      const parent = opts.parent ? (await locate(opts.parent.id))?.queue : undefined;
      if (opts.parent && !parent) throw new NotFound(`parent job ${opts.parent.id} not found`);
      const added = await queue.add(type, data, {
        jobId: jobIds.fresh(hub, opts.jobId),
        ...jobOptions(catalog, deps.jobs, type, cls),
        ...(opts.dedupId ? { deduplication: { id: opts.dedupId } } : {}),
        ...(opts.delayMs ? { delay: opts.delayMs } : {}),
        ...(opts.parent && parent ? { parent: { id: opts.parent.id, queue: parent.qualifiedName } } : {}),
      });
      // With a dedup hit (or an existing fixed id) BullMQ returns the id of the job already there: report that one.
      const existing = await viewIn(queue, added.id!);
      if (!existing) throw new NotFound(`job ${added.id} vanished right after it was enqueued`);
      return existing;
    }),

    get,

    list: guarded(async (filter: Parameters<JobQueue['list']>[0] = {}) => {
      const limit = filter.limit ?? 50;
      const offset = filter.offset ?? 0;
      const states: JobType[] = filter.state ? bullStates(filter.state) : ALL_STATES;
      // History is bounded (removeOnComplete/removeOnFail), so reading every job when filtering by type stays small.
      const end = filter.type ? -1 : offset + limit - 1;
      const found: JobView[] = [];
      for (const queue of queues.values()) {
        for (const state of states) {
          // The prioritized set is ordered by priority, not arrival, so its head is not its latest: it is read whole,
          // up to the cap the metrics use.
          const last = state === 'prioritized' && end !== -1 ? Math.max(end, IN_FLIGHT_CAP - 1) : end;
          const jobs = (await queue.getJobs([state], 0, last, false)) as Array<Job<JobData> | undefined>;
          for (const job of jobs) {
            if (job && (!filter.type || job.name === filter.type)) found.push(toJobView(job, state as JobState));
          }
        }
      }
      // Latest activity first: the order BullMQ keeps its lists in (finished sets by finish time, the active list by
      // start, the waiting list by arrival), so taking the head of each list and merging pages correctly.
      const activity = (j: JobView) => j.finishedAt ?? j.startedAt ?? j.createdAt;
      found.sort((a, b) => activity(b).localeCompare(activity(a)) || b.id.localeCompare(a.id));
      return found.slice(offset, offset + limit);
    }),

    async waitUntilDone(id, timeoutMs) {
      const first = await get(id);
      if (!first) throw new NotFound(`job ${id} not found`);
      if (FINAL_STATES.has(first.state) || timeoutMs <= 0) return first;
      return new Promise<JobView>((resolve) => {
        let done = false;
        const finish = (v: JobView) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          stop();
          resolve(v);
        };
        const stop = watch(id, (v) => FINAL_STATES.has(v.state) && finish(v));
        const timer = setTimeout(
          () =>
            void get(id).then(
              (v) => finish(v ?? first),
              () => finish(first),
            ),
          timeoutMs,
        );
      });
    },

    watch,

    retry: guarded(async (id: string) => {
      const found = await locate(id);
      const job: Job<JobData> | undefined = await found?.queue.getJob(id);
      if (!job) return undefined;
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed') return toJobView(job, state);
      await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
      return get(id);
    }),

    counts: guarded(() => countJobs(located)),
    inFlightByType: guarded(() => countInFlightByType(located, deps.producer)),

    boardQueues: () => [...queues.values()].map((q) => new BullMQAdapter(q)),

    async close() {
      deps.producer.off('ready', onReady);
      await events.close();
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
