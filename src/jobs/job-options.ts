// The BullMQ options every job of a type gets, wherever it is added (the producer, or a parent fanning out):
// retries from the catalog, bounded history from the config, and in the background queue the type's priority.
import type { JobsOptions } from 'bullmq';
import type { JobsConfig } from '../config.js';
import { jobTypeSpec, type JobCatalog } from './catalog.js';
import { type WorkClass } from '../work-class.js';

export function jobOptions(catalog: JobCatalog, jobs: JobsConfig, type: string, cls: WorkClass): JobsOptions {
  const spec = jobTypeSpec(catalog, type);
  return {
    attempts: spec.attempts,
    backoff: { type: 'exponential', delay: spec.backoffMs, jitter: 0.3 },
    removeOnComplete: { age: jobs.keepCompletedSeconds, count: jobs.keepCompletedCount },
    removeOnFail: { age: jobs.keepFailedSeconds, count: jobs.keepFailedCount },
    // Interactive jobs keep arrival order (a child of an interactive run is interactive too, whatever its type).
    ...(cls === 'background' ? { priority: spec.priority } : {}),
  };
}
