// The composition root: builds gateway -> services -> queue, then the workers, HTTP edge and timers each role
// needs, and closes them in reverse. Features (routes, job handlers, timers) are listed in system/features.ts.
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { createTeamDirectory } from './auth/team-directory.js';
import { buildOpsServer } from './http/ops-server.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { createHubCredentialMetrics } from './http/hub-credential-metrics.js';
import { registerHubRequestMetrics } from './http/hub-request-metrics.js';
import { JOB_DEFINITIONS, type JobCatalog } from './jobs/catalog.js';
import { createJobQueue, type BullJobQueue } from './jobs/job-queue.js';
import { startWorkers, type WorkerPool } from './jobs/worker.js';
import type { Logger } from './logger.js';
import type { Resync } from './schedules/resync.js';
import { bootstrapRedis, RedisMissing, whereIs } from './redis/bootstrap.js';
import { closeRedis, createRedis, waitReady, type RedisClient } from './redis/connect.js';
import type { HiveStore, JobHandler, KubeObject } from './services/ports.js';
import { FEATURES } from './system/features.js';
import { buildApiEdge } from './system/api-edge.js';
import { startSchedulerWork } from './system/scheduler-work.js';
import { createClosers } from './system/closers.js';
import { createOperations } from './services/operations/operations.js';
import { createKubeGateway, OWN_KINDS } from './kube/gateway.js';
import { startSchedulerLease } from './system/scheduler-lease.js';
import { createHubHealth, type HubHealthTracker } from './services/hubs/hub-health.js';
import { createHubEvents } from './services/hubs/hub-events.js';
import { startHealthRefresher } from './system/health-refresher.js';
import { startEmbeddedSimulator } from './system/embedded-simulator.js';
import { dropKeys, embeddedPrefix } from './system/embedded-prefix.js';
import { readVersionInfo, type VersionInfo } from './version.js';

export type Role = 'api' | 'worker' | 'scheduler';
export const ALL_ROLES: readonly Role[] = ['api', 'worker', 'scheduler'];

export interface System {
  /** The configuration in effect (in embedded mode, with the simulator's hub filled in). */
  config: Config;
  store: HiveStore;
  queue: BullJobQueue;
  metrics: Metrics;
  /** The HTTP edge (api role), or probes and metrics only (other roles); not listening yet (only src/main/ listens). */
  app: FastifyInstance;
  /** Set in embedded mode: the simulator's kubeconfig, for `oc`/`kubectl` against the demo hub. */
  simulator?: { kubeconfigYaml(): string };
  /** `configured`, `local` or `private` (a redis-server started for this process). */
  redisOrigin: string;
  /** The periodic resync (scheduler role only). */
  resync?: Resync;
  /** Each hub's reachability as the periodic probe saw it. */
  hubs: HubHealthTracker;
  /** True while this process holds the scheduler lease (always false outside the scheduler role). */
  leader(): boolean;
  close(): Promise<void>;
}

export interface SystemOptions {
  config: Config;
  log: Logger;
  clock: Clock;
  roles: readonly Role[];
  /** all-in-one only: start a private redis-server when none is configured or running locally. */
  allowPrivateRedis?: boolean;
  /** Retries per job type instead of JOB_CATALOG's (tests shorten them). */
  catalog?: JobCatalog;
  /** What GET /version answers (src/main reads it once, with BEEKEEPER_COMMIT); read from the files when absent. */
  version?: VersionInfo;
  /** How often hubs are probed, Redis pinged and job counts read for the gauges (default 15 s; tests shorten it). */
  healthRefreshMs?: number;
  /** The scheduler lease's time to live (default 15 s; tests shorten it to see a handover quickly). */
  leaseTtlMs?: number;
}

export async function createSystem(opts: SystemOptions): Promise<System> {
  const { log, clock, roles } = opts;
  const version = opts.version ?? readVersionInfo();
  const { defer, close } = createClosers(log);
  try {
    const redisBoot = await bootstrapRedis(opts.config.redis, { allowPrivate: opts.allowPrivateRedis ?? false });
    defer('private redis', redisBoot.close);
    if (redisBoot.origin === 'private')
      log.warn({ url: redisBoot.redis.url }, 'no Redis found: started a private redis-server for this process');

    let config: Config = { ...opts.config, redis: redisBoot.redis };
    const ownPrefix = embeddedPrefix(config);
    if (ownPrefix) config = { ...config, redis: { ...config.redis, prefix: ownPrefix } };
    let simulator: System['simulator'];
    if (config.hubs.length === 0) {
      const embedded = await startEmbeddedSimulator({ config, clock, log });
      defer('simulator', embedded.close);
      ({ config, simulator } = embedded);
    }

    const producer = createRedis(config.redis, 'producer');
    const listener = createRedis(config.redis, 'worker');
    for (const client of [producer, listener] as RedisClient[])
      client.on('error', (err: Error) => log.debug({ err }, 'redis connection error'));
    defer('redis', async () => Promise.all([closeRedis(producer), closeRedis(listener)]));
    // Runs after queues and workers have closed (closers run in reverse), before the connections go.
    if (ownPrefix) defer('embedded jobs', () => dropKeys(producer, ownPrefix));
    await waitReady(producer, 30_000).catch(() => {
      throw new RedisMissing(`Redis at ${whereIs(config.redis)} did not answer within 30 s.`);
    });

    const metrics = createMetrics();
    const credentialReloads = createHubCredentialMetrics(
      metrics.registry,
      config.hubs.map((h) => h.name),
    );
    const store = await createKubeGateway({
      hubs: config.hubs,
      log: log.child({ component: 'kube' }),
      clock,
      stateHub: config.stateHub,
      stateNamespace: config.stateNamespace,
      // Each hub of config.hubs carries its own limits (its file entry over these defaults); these cover the rest.
      ...(config.hubDefaults.qps !== undefined
        ? {
            rateLimit: {
              qps: config.hubDefaults.qps,
              burst: config.hubDefaults.burst ?? Math.max(1, Math.ceil(config.hubDefaults.qps)),
            },
          }
        : {}),
      maxInFlight: config.hubDefaults.maxInFlight,
      credentialsPollMs: config.hubCredentials.pollSeconds * 1000,
      onCredentialsReload: (hub, outcome) => credentialReloads(hub, outcome === 'reloaded' ? 'success' : 'failure'),
    });
    defer('informers', () => store.close());
    registerHubRequestMetrics(metrics.registry, () => store.hubRequests());

    const queue = createJobQueue({
      producer,
      listener,
      prefix: config.redis.prefix,
      hubs: config.hubs.map((h) => h.name),
      defaultHub: config.stateHub,
      jobs: config.jobs,
      log: log.child({ component: 'jobs' }),
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
      definitions: JOB_DEFINITIONS,
    });
    defer('queues', () => queue.close());

    // Jobs are read through their Operations where Redis lost them; 202 requests are accepted through them.
    const operations = createOperations({
      store,
      queue,
      clock,
      log: log.child({ component: 'operations' }),
      stateHub: config.stateHub,
      stateNamespace: config.stateNamespace,
    });
    const jobs = operations.ledger(queue);
    // Who owns what (src/auth/team-directory.ts): the configuration, then the team label on namespaces, read from
    // the Namespace informer so that no authorization decision costs a request to the hub.
    const teams = createTeamDirectory({
      config,
      namespaceLabel: (hub, name) =>
        store.cached<KubeObject>('Namespace', { hub, name })?.metadata.labels?.[config.teamLabel],
    });
    const hubs = createHubHealth({ store, clock });
    const lease = roles.includes('scheduler')
      ? startSchedulerLease({
          redis: producer,
          prefix: config.redis.prefix,
          ...(opts.leaseTtlMs ? { ttlMs: opts.leaseTtlMs } : {}),
          log,
        })
      : undefined;
    if (lease) defer('lease', () => lease.close());
    const leader = () => lease?.held() ?? false;
    const features = FEATURES.map((f) =>
      f({ config, store, queue: jobs, operations, clock, log, metrics, teams, hubs, leader }),
    );

    if (roles.includes('worker')) {
      const handlers: Record<string, JobHandler> = {};
      for (const { job, handle } of features.flatMap((f) => f.jobs ?? [])) {
        if (handlers[job.type]) throw new Error(`job type ${job.type} is registered twice`);
        handlers[job.type] = handle;
      }
      const pool: WorkerPool = await startWorkers({
        connection: listener,
        prefix: config.redis.prefix,
        hubs: config.hubs,
        handlers,
        jobs: config.jobs,
        ...(opts.catalog ? { catalog: opts.catalog } : {}),
        definitions: JOB_DEFINITIONS,
        clock,
        log: log.child({ component: 'worker' }),
        metrics,
        operations: operations.recorder,
      });
      defer('workers', () => pool.close());
      log.info({ hubs: config.hubs.map((h) => h.name), types: Object.keys(handlers) }, 'workers started');
    }

    const resync = roles.includes('scheduler')
      ? startSchedulerWork({ config, features, store, queue: jobs, redis: producer, clock, log, metrics, defer })
      : undefined;

    // Gauges that need a request (hubs, Redis, job counts) are refreshed here, never per scrape.
    const hubEvents = createHubEvents({
      store,
      clock,
      stateHub: config.stateHub,
      stateNamespace: config.stateNamespace,
      owner: leader,
    });
    const refresher = await startHealthRefresher({
      hubs,
      redis: producer,
      queue,
      metrics,
      log: log.child({ component: 'health' }),
      ...(opts.healthRefreshMs ? { intervalMs: opts.healthRefreshMs } : {}),
      onHubs: (seen) => hubEvents.observe(seen),
    });
    defer('health refresh', () => refresher.close());
    // Every role reads Beekeeper's own objects from the state hub's cache (api: schedules, policies, Operations and
    // Idempotency-Key marks; worker: the objects its jobs act for; scheduler: what its timers and resync derive
    // from), so none can serve before those informers have synced. Other hubs' health is informational only.
    const probes = { hubs: () => hubs.current(), ownState: { hub: config.stateHub, kinds: OWN_KINDS } };

    let app: FastifyInstance;
    if (roles.includes('api')) {
      app = await buildApiEdge({
        config,
        log,
        queue: jobs,
        store,
        teams,
        clock,
        metrics,
        features,
        redis: producer,
        queuesForBoard: queue.boardQueues(),
        ...probes,
        version,
        defer,
      });
    } else {
      // Worker and scheduler processes still answer probes and expose their metrics.
      const ops = await buildOpsServer({
        store,
        redis: producer,
        metrics,
        ...probes,
        log,
        version,
      });
      defer('http', () => ops.close());
      app = ops;
    }

    return {
      config,
      store,
      queue,
      metrics,
      app,
      ...(simulator ? { simulator } : {}),
      ...(resync ? { resync } : {}),
      hubs,
      leader,
      redisOrigin: redisBoot.origin,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export { describeApi } from './system/describe-api.js';
export type { Feature, FeatureDeps } from './system/features.js';
