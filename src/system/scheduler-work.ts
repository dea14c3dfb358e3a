// What the scheduler role runs besides timers: each feature's background watchers and the periodic resync, whose
// repairers are the Operations' own plus each feature's.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis/connect.js';
import { createRedisRunCoordinator, onReconnected } from '../redis/run-coordinator.js';
import { startResync, type Resync } from '../schedules/resync.js';
import { operationsRepairer } from '../services/operations/operations-repairer.js';
import type { HiveStore, JobQueue } from '../services/ports.js';
import type { Defer } from './closers.js';
import type { Feature } from './features.js';

export interface SchedulerWorkDeps {
  config: Config;
  features: readonly Feature[];
  store: HiveStore;
  /** The job ledger (jobs Redis lost are read from their Operations). */
  queue: JobQueue;
  redis: RedisClient;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  defer: Defer;
}

export function startSchedulerWork(deps: SchedulerWorkDeps): Resync {
  const { config, features, store, clock, log, redis, defer } = deps;
  for (const f of features) {
    const watcher = f.background?.();
    if (watcher) defer('watchers', async () => watcher.close());
  }
  const resync = startResync({
    store,
    clock,
    log: log.child({ component: 'resync' }),
    stateHub: config.stateHub,
    stateNamespace: config.stateNamespace,
    intervalSeconds: config.resync.intervalSeconds,
    coordinator: createRedisRunCoordinator(redis, config.redis.prefix),
    onRedisBack: (fn) => onReconnected(redis, fn),
    repairers: [
      operationsRepairer({
        store,
        queue: deps.queue,
        clock,
        log: log.child({ component: 'operations' }),
        stateHub: config.stateHub,
        stateNamespace: config.stateNamespace,
        jobs: config.jobs,
        graceMs: config.resync.operationGraceSeconds * 1000,
      }),
      ...features.flatMap((f) => f.repairers?.() ?? []),
    ],
    repairs: deps.metrics.resyncRepairs,
  });
  defer('resync', () => resync.close());
  return resync;
}
