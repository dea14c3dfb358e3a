import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Conflict, Forbidden, invalid, NotFound, Unavailable } from '../../src/hive/errors.js';
import { replyWithJob } from '../../src/http/reply-job.js';
import { WaitQuery } from '../../src/http/schemas.js';
import { testJob, type Harness } from './support.js';

// A feature-style route plugin: validate, enqueue, answer with the job (how cluster/pool routes use the platform).
export const demoRoutes =
  (h: Harness): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/demo-jobs',
      {
        schema: {
          body: Type.Object(
            { name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Integer({ minimum: 1 })) },
            { additionalProperties: false },
          ),
          querystring: WaitQuery,
        },
      },
      async (req, reply) =>
        replyWithJob(
          reply,
          h.queue,
          await h.queue.enqueue(testJob('test.demo', { name: req.body.name })),
          req.query.wait,
        ),
    );
    app.get('/boom/:kind', async (req) => {
      const kind = (req.params as { kind: string }).kind;
      if (kind === 'notfound') throw new NotFound('clusterdeployment local/ns/x not found');
      if (kind === 'conflict') throw new Conflict('cluster is protected (hive.openshift.io/protected-delete)');
      if (kind === 'invalid') throw invalid('platform.aws.region', 'is required');
      if (kind === 'forbidden') throw new Forbidden('the hub refused: clusterdeployments is forbidden');
      if (kind === 'unavailable') throw new Unavailable('hub local is unreachable', 7);
      throw new Error('database password=hunter2 leaked in a stack');
    });
  };
