// BullMQ job -> the JobView callers see. Job data is `{ payload, target }` (plus a parent's flow state); progress
// is `{ steps, reason }` where `reason` is the domain error code (or Hive's reason) of the last failure.
import type { Job } from 'bullmq';
import type { JobProgress, JobState, JobStep, JobTarget, JobView } from '../services/ports.js';

export interface JobData {
  payload: Record<string, unknown>;
  target?: JobTarget;
  /** The job carries out the Operation of its name (services/operations): its end is recorded there. */
  operation?: boolean;
  /** Results of the handler's `ctx.once` steps, by name (job-flow.ts). */
  memo?: Record<string, { value?: unknown }>;
  /** How many children the handler fanned out, once they are all added (job-flow.ts); later runs only collect. */
  childrenAdded?: number;
}

export interface JobProgressData {
  steps: JobStep[];
  reason?: string;
  /** How far the job is, as its handler last reported (JobContext.progress). */
  progress?: JobProgress;
}

export const FINAL_STATES: ReadonlySet<JobState> = new Set(['completed', 'failed']);

export function progressOf(job: Job): JobProgressData {
  const p = job.progress;
  if (p && typeof p === 'object' && Array.isArray((p as JobProgressData).steps)) return p as JobProgressData;
  return { steps: [] };
}

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : undefined);

export function toJobView(job: Job<JobData>, bullState: JobState): JobView {
  const progress = progressOf(job);
  // Background jobs carry a priority, and BullMQ keeps those waiting in a list of their own: to callers they wait.
  const state = bullState === 'prioritized' ? 'waiting' : bullState;
  const view: JobView = {
    id: job.id!,
    type: job.name,
    state,
    steps: progress.steps,
    attempts: job.attemptsMade,
    createdAt: iso(job.timestamp)!,
  };
  if (job.data?.target) view.target = job.data.target;
  if (progress.progress) view.progress = progress.progress;
  if (state === 'completed') view.result = job.returnvalue ?? null;
  if (job.failedReason && state !== 'completed')
    view.error = { message: job.failedReason, ...(progress.reason ? { reason: progress.reason } : {}) };
  const startedAt = iso(job.processedOn);
  if (startedAt) view.startedAt = startedAt;
  const finishedAt = FINAL_STATES.has(state) ? iso(job.finishedOn) : undefined;
  if (finishedAt) view.finishedAt = finishedAt;
  return view;
}
