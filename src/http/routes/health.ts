// Probes and metrics. /healthz: the process serves requests. /readyz: Redis answers and every hub is reachable
// (Kubernetes takes an unready replica out of the Service, so a replica cut off from a hub stops taking work).
import type { FastifyPluginAsync } from 'fastify';
import type { HiveStore, JobQueue, JobState } from '../../services/ports.js';
import type { RedisClient } from '../../redis/connect.js';
import type { Metrics } from '../metrics.js';

export interface HealthDeps {
  store: HiveStore;
  redis: RedisClient;
  metrics: Metrics;
  /** Jobs per hub, class and state (src/jobs BullJobQueue.counts), refreshed at each scrape. */
  jobCounts?: () => Promise<JobCounts[]>;
  /** Unfinished jobs per hub, class, type and state (src/jobs BullJobQueue.inFlightByType), refreshed at each scrape. */
  jobsInFlight?: () => Promise<InFlightJobs[]>;
  queue?: JobQueue;
}

/** One queue's jobs in one state; `class` is interactive or background (src/jobs/catalog.ts). */
export interface JobCounts {
  hub: string;
  class: string;
  state: JobState;
  count: number;
}

export interface InFlightJobs extends JobCounts {
  type: string;
}

export function healthRoutes(deps: HealthDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
      const [redis, hubs] = await Promise.all([
        deps.redis.ping().then(
          () => ({ ok: true as const }),
          (err: Error) => ({ ok: false as const, message: err.message }),
        ),
        deps.store.hubStatus().catch((err: Error) => [{ name: '*', reachable: false, message: err.message }]),
      ]);
      const ready = redis.ok && hubs.every((h) => h.reachable);
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not ready',
        redis: redis.ok ? 'ok' : redis.message,
        hubs: hubs.map((h) => ({ name: h.name, reachable: h.reachable, ...(h.message ? { message: h.message } : {}) })),
      });
    });

    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      const { metrics } = deps;
      const [statuses, counts, inFlight] = await Promise.all([
        deps.store.hubStatus().catch(() => []),
        deps.jobCounts?.().catch(() => undefined),
        deps.jobsInFlight?.().catch(() => undefined),
      ]);
      metrics.informerHealthy.reset();
      for (const hub of statuses) {
        metrics.hubReachable.set({ hub: hub.name }, hub.reachable ? 1 : 0);
        for (const [kind, inf] of Object.entries(hub.informers)) {
          metrics.informerHealthy.set({ hub: hub.name, kind }, inf && inf.synced && !inf.lastError ? 1 : 0);
        }
      }
      for (const { hub, class: cls, state, count } of counts ?? []) metrics.jobs.set({ hub, class: cls, state }, count);
      if (deps.jobsInFlight) {
        // Reset first so a type with no unfinished job left drops out instead of keeping its last count; when
        // Redis cannot be read the series are absent rather than stale.
        metrics.jobsInFlight.reset();
        for (const { hub, class: cls, type, state, count } of inFlight ?? [])
          metrics.jobsInFlight.set({ hub, class: cls, type, state }, count);
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  };
}
