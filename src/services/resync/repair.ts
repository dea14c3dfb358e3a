// What the resync's repairers share: what a repair is, and how one re-creates a job with a fixed id that Redis lost.
// A repairer compares what should have happened with what Kubernetes shows, does what is missing (enqueue the lost
// job, record a missed edge) and reports each object it repaired; the resync counts them and leaves an Event.
import { jobIds } from '../job-ids.js';
import type { JobSpec, JobQueue, JobTarget, JobView, KindName, ObjectRef } from '../ports.js';

export interface Repair {
  /** The metric label (`beekeeper_resync_repairs_total{repair}`); the repairer's name when absent. */
  repair?: string;
  /** The object the repair concerns; it gets the Event. */
  kind: KindName;
  ref: ObjectRef;
  /** What was wrong and what the resync did, for the Event. */
  message: string;
}

export interface RepairRun {
  /** The resync's clock time. */
  nowMs: number;
  /** The slot being run (`2026-11-23T18:01:00.000Z`, or `recovery-...` after a Redis outage). */
  slot: string;
  /** Report one object that could not be repaired; the run carries on with the others, the next run tries again. */
  failed(err: unknown): void;
}

/** Repair each item on its own: one that fails (a broken object, a refused write) never holds up the others. */
export async function repairEach<T>(
  run: RepairRun,
  items: Iterable<T>,
  fix: (item: T) => Promise<Repair | undefined>,
): Promise<Repair[]> {
  const out: Repair[] = [];
  for (const item of items) {
    try {
      const r = await fix(item);
      if (r) out.push(r);
    } catch (err) {
      run.failed(err);
    }
  }
  return out;
}

export interface Repairer {
  /** Letters, digits and `-`: the default metric label and the log field. */
  name: string;
  repair(run: RepairRun): Promise<Repair[]>;
}

/** A job whose id is derived from what it is about, so every producer (timers, resync, replicas) agrees on it. */
export interface FixedJob extends JobSpec {
  jobId: string;
  hub: string;
  target?: JobTarget;
}

export const enqueueFixed = (queue: JobQueue, job: FixedJob) =>
  queue.enqueue(job, {
    jobId: job.jobId,
    hub: job.hub,
    ...(job.target ? { target: job.target } : {}),
  });

export interface EnsureOptions {
  /** Run a failed job again (with fresh attempts) when this says so; never by default. */
  retryFailed?: (job: JobView) => boolean;
  /** Run a completed job again when this confirms what it was for is still not done (a warning an endpoint lacks). */
  rerunCompleted?: (job: JobView) => Promise<boolean>;
}

/**
 * Make sure the job exists and is going: add it when Redis has none (a flush, an enqueue that failed while Redis
 * was down), run it again when it ended without doing its work and the options allow it. `undefined` when the job
 * is there and nothing was needed (it is in flight, or it ended and stays as it ended).
 */
export async function ensureJob(
  queue: JobQueue,
  job: FixedJob,
  opts: EnsureOptions = {},
): Promise<'added' | 'retried' | undefined> {
  const existing = await queue.get(jobIds.on(job.hub, job.jobId));
  if (!existing) {
    await enqueueFixed(queue, job);
    return 'added';
  }
  const again =
    (existing.state === 'failed' && opts.retryFailed?.(existing)) ||
    (existing.state === 'completed' && (await opts.rerunCompleted?.(existing)));
  if (!again) return undefined;
  await queue.retry(existing.id);
  return 'retried';
}

/**
 * A job that failed for what may pass (a hub, Redis or a webhook receiver was unavailable, a write kept meeting
 * conflicts), as opposed to a refusal (Invalid, Forbidden) or a bug, which running again every resync would only
 * repeat.
 */
export const mayPass = (job: JobView) => job.error?.reason === 'Unavailable' || job.error?.reason === 'Conflict';
