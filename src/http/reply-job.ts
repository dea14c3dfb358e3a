// How every endpoint that starts a job answers: 202 with the job while it runs, or 200 with the job once it
// has ended (completed or failed: `state` tells) when the caller asked to wait (`?wait=<seconds>`).
import type { FastifyReply } from 'fastify';
import type { JobQueue, JobView } from '../services/ports.js';
import { longPoll } from './follow.js';

const ENDED = new Set(['completed', 'failed']);

/** The job once it ends, or as it is after `waitSeconds`, when the caller hangs up or the server begins shutting down. */
export async function waitForJob(
  reply: FastifyReply,
  queue: JobQueue,
  job: JobView,
  waitSeconds?: number,
): Promise<JobView> {
  if (!waitSeconds || ENDED.has(job.state)) return job;
  return longPoll(
    reply,
    () => queue.waitUntilDone(job.id, waitSeconds * 1000),
    () =>
      queue.get(job.id).then(
        (v) => v ?? job,
        () => job,
      ),
  );
}

export async function replyWithJob(
  reply: FastifyReply,
  queue: JobQueue,
  job: JobView,
  waitSeconds?: number,
): Promise<unknown> {
  const current = await waitForJob(reply, queue, job, waitSeconds);
  const ended = ENDED.has(current.state);
  if (!ended) reply.header('location', `/v1/jobs/${encodeURIComponent(current.id)}`);
  return reply.code(ended ? 200 : 202).send({ job: current });
}
