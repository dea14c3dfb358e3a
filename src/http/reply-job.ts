// How every endpoint that starts a job answers: 202 with the job while it runs, or 200 with the job once it
// has ended (completed or failed: `state` tells) when the caller asked to wait (`?wait=<seconds>`).
import type { FastifyReply } from 'fastify';
import type { JobQueue, JobView } from '../services/ports.js';

const ENDED = new Set(['completed', 'failed']);

export async function replyWithJob(reply: FastifyReply, queue: JobQueue, job: JobView, waitSeconds?: number): Promise<unknown> {
  const current = waitSeconds && !ENDED.has(job.state) ? await queue.waitUntilDone(job.id, waitSeconds * 1000) : job;
  const ended = ENDED.has(current.state);
  if (!ended) reply.header('location', `/v1/jobs/${encodeURIComponent(current.id)}`);
  return reply.code(ended ? 200 : 202).send({ job: current });
}
