// The BullMQ implementation of the JobQueue port (producer side): enqueue, read, list, wait and watch. One queue
// per hub (see ids.ts); the worker side is in worker.ts.
import { Queue, type ConnectionOptions, type Job, type JobType } from 'bullmq';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { JobsConfig } from '../config.js';
import { invalid, NotFound, Unavailable } from '../hive/errors.js';
import type { Logger } from '../logger.js';
import { isRedisDown, type RedisClient } from '../redis/connect.js';
import type { EnqueueOptions, JobQueue, JobState, JobTarget, JobView } from '../services/ports.js';
import { JOB_CATALOG, type JobCatalog } from './catalog.js';
import { createJobEvents } from './job-events.js';
import { jobOptions } from './job-options.js';
import { checkCustomId, hubOfJobId, newJobId, queueName } from './ids.js';
import { FINAL_STATES, toJobView, type JobData } from './job-view.js';
import { assertNoSecrets } from './payload-guard.js';

export interface BullJobQueue extends JobQueue {
  readonly hubs: readonly string[];
  /** Jobs per hub and state, for metrics. */
  counts(): Promise<Record<string, Partial<Record<JobState, number>>>>;
  /** Unfinished jobs per hub, type and state, for metrics; at most IN_FLIGHT_CAP jobs are read per hub and state. */
  inFlightByType(): Promise<InFlightCount[]>;
  /** bull-board adapters, one per hub queue. */
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
  log: Logger;
}

export interface InFlightCount {
  hub: string;
  type: string;
  state: JobState;
  count: number;
}

/** The states a job is in before it finishes. */
export const IN_FLIGHT_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const satisfies readonly JobState[];
/** Jobs read per hub and state at each scrape: a backlog past this is counted only up to it (the help text says so). */
export const IN_FLIGHT_CAP = 5000;

const ALL_STATES: JobType[] = ['active', 'waiting', 'prioritized', 'waiting-children', 'delayed', 'completed', 'failed'];

export function createJobQueue(deps: JobQueueDeps): BullJobQueue {
  const catalog = deps.catalog ?? JOB_CATALOG;
  const queues = new Map<string, Queue>();
  for (const hub of deps.hubs) {
    const queue = new Queue(queueName(hub), { connection: deps.producer, prefix: deps.prefix });
    queue.on('error', (err) => deps.log.warn({ err, hub }, 'job queue connection error'));
    queues.set(hub, queue);
  }
  const events = createJobEvents({ connection: deps.listener, redis: deps.producer, prefix: deps.prefix, queues, log: deps.log });

  // Producers fail fast while Redis is down (BullMQ would wait for the connection), so an API caller gets a 503
  // with Retry-After at once and services see a domain error they already handle.
  const storeDown = (cause?: unknown) => new Unavailable('the job store (Redis) is unavailable; retry shortly', 5, { cause });
  const guarded = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (deps.producer.status !== 'ready') throw storeDown();
      try {
        return await fn(...args);
      } catch (err) {
        throw isRedisDown(err) ? storeDown(err) : err;
      }
    };

  const queueFor = (hub: string) => {
    const q = queues.get(hub);
    if (!q) throw invalid('hub', `unknown hub ${JSON.stringify(hub)}; configured: ${deps.hubs.join(', ')}`);
    return q;
  };

  // State first, then the record: the record is then at least as new as the state, so a finished state always
  // comes with its result or error (the other order can pair `completed` with a pre-completion record).
  const get = guarded(async (id: string): Promise<JobView | undefined> => {
    const hub = hubOfJobId(id);
    const queue = hub ? queues.get(hub) : undefined;
    if (!queue) return undefined;
    const state = (await queue.getJobState(id)) as JobState;
    const job: Job<JobData> | undefined = await queue.getJob(id);
    return job ? toJobView(job, state) : undefined;
  });

  const watch = (id: string, listener: (job: JobView) => void): (() => void) => {
    const hub = hubOfJobId(id);
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
    if (hub && queues.has(hub)) {
      events
        .subscribe(hub, id, refresh)
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

    enqueue: guarded(async (type: string, payload: Record<string, unknown>, opts: EnqueueOptions & { target?: JobTarget } = {}) => {
      assertNoSecrets(payload);
      if (opts.jobId) checkCustomId('jobId', opts.jobId);
      if (opts.dedupId) checkCustomId('dedupId', opts.dedupId);
      const hub = opts.hub ?? opts.target?.hub ?? deps.defaultHub;
      const queue = queueFor(hub);
      const data: JobData = { payload, ...(opts.target ? { target: opts.target } : {}), ...(opts.operation ? { operation: true } : {}) };
      const parentHub = opts.parent ? hubOfJobId(opts.parent.id) : undefined;
      const added = await queue.add(type, data, {
        jobId: newJobId(hub, opts.jobId),
        ...jobOptions(catalog, deps.jobs, type),
        ...(opts.dedupId ? { deduplication: { id: opts.dedupId } } : {}),
        ...(opts.delayMs ? { delay: opts.delayMs } : {}),
        ...(opts.parent && parentHub ? { parent: { id: opts.parent.id, queue: `${deps.prefix}:${queueName(parentHub)}` } } : {}),
      });
      // With a dedup hit (or an existing fixed id) BullMQ returns the id of the job already there: report that one.
      const existing = await get(added.id!);
      if (!existing) throw new NotFound(`job ${added.id} vanished right after it was enqueued`);
      return existing;
    }),

    get,

    list: guarded(async (filter: Parameters<JobQueue['list']>[0] = {}) => {
      const limit = filter.limit ?? 50;
      const offset = filter.offset ?? 0;
      const states: JobType[] = filter.state ? [filter.state as JobType] : ALL_STATES;
      // History is bounded (removeOnComplete/removeOnFail), so reading every job when filtering by type stays small.
      const end = filter.type ? -1 : offset + limit - 1;
      const found: JobView[] = [];
      for (const queue of queues.values()) {
        for (const state of states) {
          const jobs = (await queue.getJobs([state], 0, end, false)) as Array<Job<JobData> | undefined>;
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
        const timer = setTimeout(() => void get(id).then((v) => finish(v ?? first), () => finish(first)), timeoutMs);
      });
    },

    watch,

    counts: guarded(async () => {
      const out: Record<string, Partial<Record<JobState, number>>> = {};
      for (const [hub, queue] of queues) out[hub] = (await queue.getJobCounts(...ALL_STATES)) as Partial<Record<JobState, number>>;
      return out;
    }),

    // Only ids and the `name` field (the job type) are read, in one pipeline per hub and state: hydrating whole
    // jobs (payload, steps, stack traces) at every scrape would cost far more than the count is worth.
    inFlightByType: guarded(async () => {
      const out: InFlightCount[] = [];
      for (const [hub, queue] of queues) {
        for (const state of IN_FLIGHT_STATES) {
          // 'waiting' reads both the wait and paused lists, so the merged ids are cut to the cap again.
          const ids = (await queue.getRanges([state], 0, IN_FLIGHT_CAP - 1)).slice(0, IN_FLIGHT_CAP);
          if (ids.length === 0) continue;
          const pipeline = deps.producer.pipeline();
          for (const id of ids) pipeline.hget(queue.toKey(id), 'name');
          const byType = new Map<string, number>();
          for (const [err, name] of (await pipeline.exec()) ?? []) {
            // A job finished and removed between the two reads has no name any more: it is no longer in flight.
            if (!err && typeof name === 'string') byType.set(name, (byType.get(name) ?? 0) + 1);
          }
          for (const [type, count] of byType) out.push({ hub, type, state, count });
        }
      }
      return out;
    }),

    boardQueues: () => [...queues.values()].map((q) => new BullMQAdapter(q)),

    async close() {
      await events.close();
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
