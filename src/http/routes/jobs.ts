// GET /v1/jobs, GET /v1/jobs/{id} (?wait), GET /v1/jobs/{id}/events (Server-Sent Events until the job ends). In the
// system the queue answers a job Redis lost from its Operation (services/operations/job-ledger.ts); lists stay Redis's.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { visibilityOf, type Ownership } from '../../auth/authorize.js';
import { NotFound } from '../../hive/errors.js';
import { JOB_ID_MAX } from '../../services/job-ids.js';
import type { JobQueue, JobState, JobView } from '../../services/ports.js';
import type { Caller } from '../../auth/caller.js';
import { streamEvents } from '../follow.js';
import { waitForJob } from '../reply-job.js';
import { JobEnvelopeSchema, JobSchema, JobStateSchema, problemResponses, WaitQuery } from '../schemas.js';

const ENDED = new Set<JobState>(['completed', 'failed']);

/** Jobs read in the first round while filtering a list for a caller who sees only some of them. */
const FIRST_READ = 500;

/**
 * A page of the jobs the caller may see: filtered before paging, so `offset` and `limit` count visible jobs. The
 * queue answers latest first from the head of each list, so each round reads a head twice as long as the last
 * until the page is full or the (bounded) history is read whole.
 */
async function visibleJobs(
  queue: JobQueue,
  sees: (job: JobView) => boolean,
  q: { state?: JobState; type?: string; limit: number; offset: number },
): Promise<JobView[]> {
  const wanted = q.offset + q.limit;
  for (let read = FIRST_READ; ; read *= 2) {
    const head = await queue.list({
      ...(q.state ? { state: q.state } : {}),
      ...(q.type ? { type: q.type } : {}),
      limit: read,
      offset: 0,
    });
    const visible = head.filter(sees);
    if (visible.length >= wanted || head.length < read) return visible.slice(q.offset, wanted);
  }
}

const IdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: JOB_ID_MAX, description: '`<hub>.<id>`, as the API reported it' }),
});

export function jobRoutes(deps: { queue: JobQueue; ownership: Ownership }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { queue, ownership } = deps;
    // A job belongs to its target's team (access.md): one the caller may not see answers as a missing one.
    const visibleJob = async (req: { caller: Caller }, id: string): Promise<JobView> => {
      const job = await queue.get(id);
      if (!job || !visibilityOf(req.caller, ownership).job(job.target)) throw new NotFound(`job ${id} not found`);
      return job;
    };
    const byTarget = { access: { handled: 'in-handler', why: "the job's target's team" } } as const;

    app.get(
      '/jobs',
      {
        config: { access: { handled: 'in-handler', why: 'lists the jobs whose target the caller may see' } },
        schema: {
          tags: ['jobs'],
          summary:
            'List the jobs Redis holds (in flight and the bounded history), latest activity first ' +
            '(finished, started or created); a job Redis lost is not listed but still answers by id',
          querystring: Type.Object({
            state: Type.Optional(JobStateSchema),
            type: Type.Optional(Type.String({ maxLength: 200 })),
            limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
            offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
          }),
          response: {
            200: Type.Object({ items: Type.Array(JobSchema), limit: Type.Integer(), offset: Type.Integer() }),
            ...problemResponses(400),
          },
        },
      },
      async (req) => {
        const { state, type, limit, offset } = req.query;
        const sees = visibilityOf(req.caller, ownership);
        if (!sees.everything) {
          const items = await visibleJobs(queue, (job) => sees.job(job.target), { state, type, limit, offset });
          return { items, limit, offset };
        }
        const items = await queue.list({
          ...(state ? { state: state } : {}),
          ...(type ? { type } : {}),
          limit,
          offset,
        });
        return { items, limit, offset };
      },
    );

    app.get(
      '/jobs/:id',
      {
        config: byTarget,
        schema: {
          tags: ['jobs'],
          summary:
            'One job: state, progress steps, result or error, attempts, timestamps, target; for a job ' +
            'Redis lost, its Operation and the target as Kubernetes shows it (source: kubernetes)',
          params: IdParams,
          querystring: WaitQuery,
          response: { 200: JobEnvelopeSchema, ...problemResponses(400, 404) },
        },
      },
      async (req, reply) => {
        const job = await visibleJob(req, req.params.id);
        return { job: await waitForJob(reply, queue, job, req.query.wait) };
      },
    );

    app.get(
      '/jobs/:id/events',
      {
        config: byTarget,
        schema: {
          tags: ['jobs'],
          summary: 'Server-Sent Events: an `event: job` with the whole job on every change, until it ends',
          params: IdParams,
          produces: ['text/event-stream'],
          response: {
            200: {
              description: 'text/event-stream of `event: job` messages, each `data:` a Job',
              content: { 'text/event-stream': { schema: Type.String() } },
            },
            ...problemResponses(404),
          },
        },
      },
      async (req, reply) => {
        const first = await visibleJob(req, req.params.id);
        await streamEvents(reply, {
          // watch() delivers the current state first, then every change.
          follow: (stream) =>
            queue.watch(first.id, (job) => {
              stream.send('job', job);
              if (ENDED.has(job.state)) stream.end();
            }),
          // The stream ends with the job as it is now; the client reconnects to another replica.
          atShutdown: async (stream) => stream.send('job', (await queue.get(first.id).catch(() => undefined)) ?? first),
        });
      },
    );
  };
}
