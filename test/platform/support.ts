// Builders shared by the platform tests: a unique Redis prefix per file, real BullMQ queues and workers, and a
// small in-memory HiveStore stand-in (the platform never looks inside Hive objects).
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { systemClock } from '../../src/clock.js';
import { loadConfig, type Config, type JobsConfig } from '../../src/config.js';
import { createMetrics, type Metrics } from '../../src/http/metrics.js';
import { buildServer, type ServerDeps } from '../../src/http/server.js';
import { createJobQueue, type BullJobQueue } from '../../src/jobs/job-queue.js';
import { startWorkers, type WorkerPool } from '../../src/jobs/worker.js';
import type { JobCatalog } from '../../src/jobs/catalog.js';
import { Type as T } from 'typebox';
import { defineJob, jobOf, type JobDefinition } from '../../src/services/job-definition.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady, type RedisClient } from '../../src/redis/connect.js';
import type { HiveStore, HubStatus, JobHandler, JobSpec } from '../../src/services/ports.js';
import { configTeamDirectory } from '../../src/auth/team-directory.js';
import { createHubHealth } from '../../src/services/hubs/hub-health.js';
import { startHealthRefresher } from '../../src/system/health-refresher.js';

export const REDIS_URL = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const quietLog = createLogger({ level: 'silent' });

/** Short locks so a crashed worker's job is recovered in seconds; small backoff so retries are quick. */
export const FAST_JOBS: JobsConfig = {
  lockDurationMs: 2000,
  stalledIntervalMs: 1000,
  keepCompletedSeconds: 3600,
  keepCompletedCount: 100,
  keepFailedSeconds: 3600,
  keepFailedCount: 100,
  shutdownGraceMs: 2000,
};

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    REDIS_URL: REDIS_URL(),
    BEEKEEPER_REDIS_PREFIX: `{bk-test-${randomUUID().slice(0, 8)}}`,
    ...env,
  });
}

const testDefinitions = new Map<string, JobDefinition<ReturnType<typeof anyPayload>>>();
const anyPayload = () => T.Record(T.String(), T.Unknown());

/**
 * A job of a type the test runs with its own handlers (or a real type with a payload only the test's handler
 * reads): defined with a schema any payload fits, so it goes through `jobOf` as every producer's job does.
 */
export function testJob(type: string, payload: Record<string, unknown> = {}): JobSpec {
  let def = testDefinitions.get(type);
  if (!def) testDefinitions.set(type, (def = defineJob({ type, payload: anyPayload() })));
  return jobOf(def, payload);
}

export function fakeStore(
  hubs: HubStatus[] = [{ name: 'local', reachable: true, hiveCrdsPresent: true, counts: {}, informers: {} }],
): HiveStore {
  const no = () => {
    throw new Error('not used by the platform tests');
  };
  return {
    hubNames: () => hubs.map((h) => h.name),
    hubStatus: async () => hubs,
    hubCaches: () => hubs.map(({ name, counts, informers }) => ({ name, counts, informers })),
    cached: () => undefined,
    cachedList: () => [],
    cachedInOrder: () => [],
    get: no,
    list: no,
    create: no,
    mergePatch: no,
    replace: no,
    delete: no,
    waitFor: no,
    onChange: () => () => undefined,
    recordEvent: async () => undefined,
  };
}

export interface Harness {
  config: Config;
  producer: RedisClient;
  listener: RedisClient;
  queue: BullJobQueue;
  /** Workers for every hub of the harness, `concurrency` slots each, per class of work unless `background` says otherwise. */
  startWorkers(
    handlers: Record<string, JobHandler>,
    opts?: {
      metrics?: Metrics;
      concurrency?: number;
      globalConcurrency?: number;
      background?: { concurrency: number; globalConcurrency: number };
      definitions?: readonly JobDefinition[];
    },
  ): Promise<WorkerPool>;
  close(): Promise<void>;
}

export async function createHarness(
  opts: {
    catalog?: JobCatalog;
    config?: Config;
    hubs?: string[];
    jobs?: Partial<JobsConfig>;
    definitions?: readonly JobDefinition[];
  } = {},
): Promise<Harness> {
  const config = opts.config ?? testConfig();
  const jobs: JobsConfig = { ...FAST_JOBS, ...opts.jobs };
  const hubs = opts.hubs ?? ['local'];
  const catalog = opts.catalog;
  const producer = createRedis(config.redis, 'producer');
  const listener = createRedis(config.redis, 'worker');
  await waitReady(producer);
  const queue = createJobQueue({
    producer,
    listener,
    prefix: config.redis.prefix,
    hubs,
    defaultHub: hubs[0]!,
    jobs,
    log: quietLog,
    ...(opts.catalog ? { catalog: opts.catalog } : {}),
    ...(opts.definitions ? { definitions: opts.definitions } : {}),
  });
  const pools: WorkerPool[] = [];
  return {
    config,
    producer,
    listener,
    queue,
    async startWorkers(handlers, opts = {}) {
      const pool = await startWorkers({
        connection: listener,
        prefix: config.redis.prefix,
        hubs: hubs.map((name) => ({
          name,
          concurrency: opts.concurrency ?? 4,
          globalConcurrency: opts.globalConcurrency ?? 10,
          backgroundConcurrency: opts.background?.concurrency ?? opts.concurrency ?? 4,
          backgroundGlobalConcurrency: opts.background?.globalConcurrency ?? opts.globalConcurrency ?? 10,
        })),
        handlers,
        ...(catalog ? { catalog } : {}),
        jobs,
        clock: systemClock,
        log: quietLog,
        ...(opts.metrics ? { metrics: opts.metrics } : {}),
        ...(opts.definitions ? { definitions: opts.definitions } : {}),
      });
      pools.push(pool);
      return pool;
    },
    async close() {
      for (const p of pools) await p.close();
      await queue.close();
      // Leave nothing behind in the shared Redis.
      const keys = await producer.keys(`${config.redis.prefix}*`);
      if (keys.length > 0) await producer.del(...keys);
      await closeRedis(producer);
      await closeRedis(listener);
    },
  };
}

export async function buildTestServer(
  h: Harness,
  routes: FastifyPluginAsync[] = [],
  opts: { store?: HiveStore; metrics?: Metrics; log?: Logger; hubs?: ServerDeps['hubs'] } = {},
) {
  return buildServer({
    teams: configTeamDirectory(h.config),
    config: h.config,
    log: opts.log ?? quietLog,
    queue: h.queue,
    store: opts.store ?? fakeStore(),
    metrics: opts.metrics ?? createMetrics({ defaultMetrics: false }),
    routes,
    redis: h.producer,
    queuesForBoard: h.queue.boardQueues(),
    ...(opts.hubs ? { hubs: opts.hubs } : {}),
  });
}

/**
 * The periodic refresh a system runs (src/system/health-refresher.ts) for the harness's queue and a store, with an
 * interval long enough never to fire in a test: `refresh()` is the tick, so a test states when the gauges are read.
 */
export async function startTestRefresher(h: Harness, metrics: Metrics, store: HiveStore = fakeStore()) {
  const hubs = createHubHealth({ store, clock: systemClock });
  const refresher = await startHealthRefresher({
    hubs,
    redis: h.producer,
    queue: h.queue,
    metrics,
    log: quietLog,
    intervalMs: 3_600_000,
  });
  return { ...refresher, hubs };
}

/** A promise with its resolve function, to hold a job handler until the test lets it go. */
export function gate<T = void>() {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

/** Parse a text/event-stream body into its `data:` JSON payloads. */
export function sseEvents<T>(body: string): T[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)) as T);
}
