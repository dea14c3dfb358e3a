// How every endpoint that starts a job answers: 202 with the job while it runs, or 200 with the job once it
// has ended (completed or failed: `state` tells) when the caller asked to wait (`?wait=<seconds>`).
import type { FastifyReply } from 'fastify';
import type { JobQueue, JobView } from '../services/ports.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Aborts when the server starts closing: long waits and event streams answer at once instead of holding shutdown. */
    closing: AbortSignal;
  }
}

const ENDED = new Set(['completed', 'failed']);

/** The job once it ends, or as it is after `waitSeconds` or when the server begins shutting down. */
export async function waitForJob(reply: FastifyReply, queue: JobQueue, job: JobView, waitSeconds?: number): Promise<JobView> {
  if (!waitSeconds || ENDED.has(job.state)) return job;
  const closing = reply.server.closing;
  if (!closing) return queue.waitUntilDone(job.id, waitSeconds * 1000);
  if (closing.aborted) return job;
  let onAbort = () => undefined as void;
  const aborted = new Promise<JobView>((resolve) => {
    onAbort = () => void queue.get(job.id).then((v) => resolve(v ?? job), () => resolve(job));
    closing.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([queue.waitUntilDone(job.id, waitSeconds * 1000), aborted]);
  } finally {
    closing.removeEventListener('abort', onAbort);
  }
}

export async function replyWithJob(reply: FastifyReply, queue: JobQueue, job: JobView, waitSeconds?: number): Promise<unknown> {
  const current = await waitForJob(reply, queue, job, waitSeconds);
  const ended = ENDED.has(current.state);
  if (!ended) reply.header('location', `/v1/jobs/${encodeURIComponent(current.id)}`);
  return reply.code(ended ? 200 : 202).send({ job: current });
}
