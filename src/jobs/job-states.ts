// Which of BullMQ's lists hold the jobs of a state Beekeeper reports.
import type { JobType } from 'bullmq';
import type { JobState } from '../services/ports.js';

/**
 * BullMQ's lists behind a state: jobs with a priority (every background job) wait in a set of their own, which
 * callers and metrics see as `waiting` (toJobView).
 */
export const bullStates = (state: JobState): JobType[] =>
  state === 'waiting' ? ['waiting', 'prioritized'] : [state as JobType];

export const ALL_STATES: JobType[] = [
  'active',
  'waiting',
  'prioritized',
  'waiting-children',
  'delayed',
  'completed',
  'failed',
];
