// The periodic refresh behind /metrics, /readyz's hub list and GET /v1/hubs: every `intervalMs` it probes each hub
// once, pings Redis and reads the job counts, and writes what it saw into the gauges. A scrape then only renders
// memory: with 7 processes scraped every 15 s, scrapes used to send a request to every hub and dozens of Redis
// calls each time. The hub reachability Events (scheduler lease holder only) hang off the same refresh.
import type { Metrics } from '../http/metrics.js';
import type { BullJobQueue } from '../jobs/job-queue.js';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis/connect.js';
import { within } from '../redis/within.js';
import type { HubHealth, HubHealthTracker } from '../services/hubs/hub-health.js';

export const HEALTH_REFRESH_MS = 15_000;
/** A refresh never hangs on Redis: past this, Redis counts as down for the gauge. */
const REDIS_TIMEOUT_MS = 5_000;

export interface HealthRefresher {
  /** One refresh now (the first runs at start); concurrent calls share it. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export interface HealthRefresherDeps {
  hubs: HubHealthTracker;
  redis: RedisClient;
  queue: Pick<BullJobQueue, 'counts' | 'inFlightByType'>;
  metrics: Metrics;
  log: Logger;
  intervalMs?: number;
  /** Told each refresh's hubs (the hub Events). */
  onHubs?: (hubs: readonly HubHealth[]) => void;
}

export async function startHealthRefresher(deps: HealthRefresherDeps): Promise<HealthRefresher> {
  const { metrics, log } = deps;
  let running: Promise<void> | undefined;

  const hubs = async () => {
    const seen = await deps.hubs.refresh();
    metrics.hubReachable.reset();
    metrics.informerHealthy.reset();
    for (const hub of seen) {
      metrics.hubReachable.set({ hub: hub.name }, hub.reachable ? 1 : 0);
      for (const [kind, inf] of Object.entries(hub.informers))
        metrics.informerHealthy.set({ hub: hub.name, kind }, inf && inf.synced && !inf.lastError ? 1 : 0);
    }
    deps.onHubs?.(seen);
  };

  const redis = async () => {
    const up = await within(REDIS_TIMEOUT_MS, 'PING', deps.redis.ping()).then(
      () => true,
      () => false,
    );
    metrics.redisUp.set(up ? 1 : 0);
    if (!up) {
      // No stale counts: the series are absent while Redis cannot be read.
      metrics.jobs.reset();
      metrics.jobsInFlight.reset();
      return;
    }
    const [counts, inFlight] = await Promise.all([
      within(REDIS_TIMEOUT_MS, 'job counts', deps.queue.counts()).catch(() => undefined),
      within(REDIS_TIMEOUT_MS, 'in-flight jobs', deps.queue.inFlightByType()).catch(() => undefined),
    ]);
    metrics.jobs.reset();
    for (const { hub, class: cls, state, count } of counts ?? []) metrics.jobs.set({ hub, class: cls, state }, count);
    // Reset first so a type with no unfinished job left drops out instead of keeping its last count.
    metrics.jobsInFlight.reset();
    for (const { hub, class: cls, type, state, count } of inFlight ?? [])
      metrics.jobsInFlight.set({ hub, class: cls, type, state }, count);
  };

  const refresh = () => {
    running ??= Promise.all([
      hubs().catch((err: Error) => log.warn({ err: err.message }, 'hub health refresh failed')),
      redis().catch((err: Error) => log.warn({ err: err.message }, 'job count refresh failed')),
    ])
      .then(() => undefined)
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  await refresh();
  const timer = setInterval(() => void refresh(), deps.intervalMs ?? HEALTH_REFRESH_MS);
  timer.unref();
  return {
    refresh,
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
