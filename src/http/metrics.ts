// Prometheus metrics. One registry per process (no module-level singleton: tests build as many as they like).
// Features register their own metrics on `registry` (e.g. pool/claim gauges) next to these named ones. Gauges that
// need a request to fill (hubs, Redis, job counts) are set by the periodic refresh (src/system/health-refresher.ts),
// so a scrape reads memory only. Node's default metrics keep their standard names (process_cpu_seconds_total...),
// which the usual dashboards and alerts expect; Beekeeper's own metrics are `beekeeper_*`.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram.js';

/** One hibernate or resume job is one requested transition of `spec.powerState` (src/jobs/catalog.ts names). */
export interface Metrics {
  registry: Registry;
  /** By method, route template and status (request-duration-histogram.ts). */
  httpRequestDuration: RequestDurationHistogram;
  /** Jobs per hub, class (interactive, background) and state, refreshed periodically from Redis (so it covers every replica). */
  jobs: Gauge<'hub' | 'class' | 'state'>;
  /** Unfinished jobs per hub, class, type and state, refreshed periodically from Redis (capped per queue and state). */
  jobsInFlight: Gauge<'hub' | 'class' | 'type' | 'state'>;
  /** Jobs finished by this process's workers, by type and outcome. */
  jobsFinished: Counter<'type' | 'outcome'>;
  jobDuration: Histogram<'type' | 'outcome'>;
  /** Power state changes carried out (hibernate/resume), by hub, target state and outcome. */
  powerTransitions: Counter<'hub' | 'to' | 'outcome'>;
  /** 1 when the informer for a hub and kind has synced and its watch is healthy. */
  informerHealthy: Gauge<'hub' | 'kind'>;
  /** 1 if the hub's API server answered the last periodic probe. */
  hubReachable: Gauge<'hub'>;
  /** 1 if Redis answered the last periodic ping. */
  redisUp: Gauge;
  /** What the scheduler role's resync found missing and repaired (a lost job, an unrecorded edge), by kind. */
  resyncRepairs: Counter<'repair'>;
  /** The worker's sink (src/jobs/worker.ts JobMetricsSink). */
  jobFinished(type: string, outcome: 'completed' | 'failed', seconds: number, hub: string): void;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const jobsFinished = new Counter({
    name: 'beekeeper_jobs_finished_total',
    help: 'Jobs finished by this process',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'beekeeper_job_duration_seconds',
    help: 'Time from a job starting to it ending (last attempt)',
    labelNames: ['type', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200],
    registers,
  });
  const powerTransitions = new Counter({
    name: 'beekeeper_power_transitions_total',
    // Fed by the power jobs themselves: only they know a hibernate of a hibernated cluster changed nothing.
    help: 'Hibernate and resume jobs by outcome: completed (Hive reached the state), unchanged (it was already there), failed',
    labelNames: ['hub', 'to', 'outcome'] as const,
    registers,
  });
  return {
    registry,
    httpRequestDuration: new RequestDurationHistogram(
      'beekeeper_http_request_duration_seconds',
      'HTTP requests by route template and status',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
      registers,
    ),
    jobs: new Gauge({
      name: 'beekeeper_jobs',
      help: 'Jobs per hub, class of work (interactive, background) and state',
      labelNames: ['hub', 'class', 'state'] as const,
      registers,
    }),
    jobsInFlight: new Gauge({
      name: 'beekeeper_jobs_in_flight',
      // The cap is IN_FLIGHT_CAP in src/jobs/job-counts.ts (http may not import jobs).
      help:
        'Unfinished jobs (waiting, active, delayed, waiting-children) per hub, class of work, job ' +
        'type and state; counts at most 5000 jobs per queue and state',
      labelNames: ['hub', 'class', 'type', 'state'] as const,
      registers,
    }),
    jobsFinished,
    jobDuration,
    powerTransitions,
    informerHealthy: new Gauge({
      name: 'beekeeper_informer_healthy',
      help: '1 if the informer synced and its watch is healthy',
      labelNames: ['hub', 'kind'] as const,
      registers,
    }),
    hubReachable: new Gauge({
      name: 'beekeeper_hub_reachable',
      help: '1 if the hub API server answered the last periodic probe (every 15 s)',
      labelNames: ['hub'] as const,
      registers,
    }),
    redisUp: new Gauge({
      name: 'beekeeper_redis_up',
      help: '1 if Redis answered the last periodic ping (every 15 s)',
      registers,
    }),
    resyncRepairs: new Counter({
      name: 'beekeeper_resync_repairs_total',
      help: 'Work the periodic resync found missing (lost from Redis, or never enqueued) and redid, by kind of repair',
      labelNames: ['repair'] as const,
      registers,
    }),
    jobFinished(type, outcome, seconds) {
      jobsFinished.inc({ type, outcome });
      jobDuration.observe({ type, outcome }, seconds);
    },
  };
}
