// Job counts for the metrics gauges, read at each health refresh (system/health-refresher.ts), never per scrape:
// jobs per hub, class and state, and unfinished jobs per type.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/connect.js';
import type { JobState } from '../services/ports.js';
import type { WorkClass } from '../work-class.js';
import { ALL_STATES, bullStates } from './job-states.js';

export interface JobCount {
  hub: string;
  class: WorkClass;
  state: JobState;
  count: number;
}

export interface InFlightCount extends JobCount {
  type: string;
}

/** The states a job is in before it finishes. */
export const IN_FLIGHT_STATES = [
  'waiting',
  'active',
  'delayed',
  'waiting-children',
] as const satisfies readonly JobState[];
/** Jobs read per queue and state at each metrics refresh: a backlog past this is counted only up to it (the help text says so). */
export const IN_FLIGHT_CAP = 5000;

/** Each queue with the hub and class it serves. */
export type LocatedQueues = ReadonlyMap<Queue, { hub: string; cls: WorkClass }>;

export async function countJobs(located: LocatedQueues): Promise<JobCount[]> {
  const out: JobCount[] = [];
  for (const [queue, { hub, cls }] of located) {
    const counts = (await queue.getJobCounts(...ALL_STATES)) as Partial<Record<JobState, number>>;
    const waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
    delete counts.prioritized;
    for (const [state, count] of Object.entries({ ...counts, waiting }))
      out.push({ hub, class: cls, state: state as JobState, count: count ?? 0 });
  }
  return out;
}

// Only ids and the `name` field (the job type) are read, in one pipeline per queue and state: hydrating whole
// jobs (payload, steps, stack traces) at every scrape would cost far more than the count is worth.
export async function countInFlightByType(located: LocatedQueues, redis: RedisClient): Promise<InFlightCount[]> {
  const out: InFlightCount[] = [];
  for (const [queue, { hub, cls }] of located) {
    for (const state of IN_FLIGHT_STATES) {
      // 'waiting' reads the wait, paused and prioritized lists, so the merged ids are cut to the cap again.
      const ids = (await queue.getRanges(bullStates(state), 0, IN_FLIGHT_CAP - 1)).slice(0, IN_FLIGHT_CAP);
      if (ids.length === 0) continue;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hget(queue.toKey(id), 'name');
      const byType = new Map<string, number>();
      for (const [err, name] of (await pipeline.exec()) ?? []) {
        // A job finished and removed between the two reads has no name any more: it is no longer in flight.
        if (!err && typeof name === 'string') byType.set(name, (byType.get(name) ?? 0) + 1);
      }
      for (const [type, count] of byType) out.push({ hub, class: cls, type, state, count });
    }
  }
  return out;
}
