// /v1/pools: Hive ClusterPools across hubs with their counts, conditions in plain words, waiting claims and
// clusters; create with an install-config template, change settings, delete (refused while claims hold it).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { visibilityOf, type Ownership } from '../../auth/authorize.js';
import type { PoolService } from '../../services/pools/pool-service.js';
import { JobSchema, problemResponses } from '../schemas.js';
import { PoolCreateSchema, PoolPatchSchema, PoolViewSchema, RefParams } from './pool-claim-schemas.js';

export function poolRoutes(deps: { pools: PoolService; ownership: Ownership }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { pools } = deps;
    const tags = ['pools'];

    app.get(
      '/pools',
      {
        config: { access: { handled: 'in-handler', why: 'lists the pools of the caller’s teams' } },
        schema: {
          tags,
          summary: 'Pools across hubs with Hive counts, problems in plain words, waiting claims',
          querystring: Type.Object({
            hub: Type.Optional(Type.String()),
            namespace: Type.Optional(Type.String()),
            labelSelector: Type.Optional(Type.String()),
          }),
          response: { 200: Type.Object({ items: Type.Array(PoolViewSchema) }), ...problemResponses(400) },
        },
      },
      async (req) => {
        const sees = visibilityOf(req.caller, deps.ownership);
        return { items: pools.list(req.query, sees.everything ? undefined : sees.pool) };
      },
    );

    app.post(
      '/pools',
      {
        config: { access: { create: 'pool', role: 'admin' } },
        schema: {
          tags,
          summary: 'Create a ClusterPool (and its install-config template Secret unless one is named)',
          body: PoolCreateSchema,
          response: { 201: PoolViewSchema, ...problemResponses(400, 409, 422) },
        },
      },
      async (req, reply) => {
        const view = await pools.create(req.body, req.principal, req.idempotency);
        return reply.code(201).header('location', `/v1/pools/${view.id}`).send(view);
      },
    );

    app.get(
      '/pools/:hub/:namespace/:name',
      {
        config: { access: { object: 'pool', role: 'viewer' } },
        schema: {
          tags,
          summary: 'One pool: counts, problems, claims waiting in order, its clusters',
          params: RefParams,
          response: { 200: PoolViewSchema, ...problemResponses(404) },
        },
      },
      async (req) => pools.get(req.params),
    );

    app.patch(
      '/pools/:hub/:namespace/:name',
      {
        config: { access: { object: 'pool', role: 'admin' } },
        schema: {
          tags,
          summary:
            'Change size, runningCount, maxSize, maxConcurrent, hibernateAfter, claimLifetime or labels (`unset` removes a cap)',
          params: RefParams,
          body: PoolPatchSchema,
          response: { 200: PoolViewSchema, ...problemResponses(400, 404, 409, 422) },
        },
      },
      async (req) => pools.update(req.params, req.body, req.principal),
    );

    app.delete(
      '/pools/:hub/:namespace/:name',
      {
        config: { access: { object: 'pool', role: 'admin' } },
        schema: {
          tags,
          summary: 'Delete a pool; refused (409, naming the claims) while claimed clusters would hold it',
          params: RefParams,
          response: { 202: Type.Object({ pool: PoolViewSchema, job: JobSchema }), ...problemResponses(404, 409) },
        },
      },
      async (req, reply) => {
        const { pool, job } = await pools.remove(req.params, req.principal);
        return reply
          .code(202)
          .header('location', `/v1/jobs/${encodeURIComponent(job.id)}`)
          .send({ pool, job });
      },
    );
  };
}
