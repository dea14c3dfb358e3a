// /v1/claims: claim a cluster from a pool (named or by attributes), follow it (?wait long poll, SSE), get its
// kubeconfig and credentials, extend, heartbeat, release. Thin: schema -> claim service -> reply.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { claimAccess } from '../../auth/claim-access.js';
import { visibilityOf, type Ownership } from '../../auth/authorize.js';
import type { ClaimService } from '../../services/claims/claim-service.js';
import { auditOrigin } from '../audit.js';
import { longPoll, streamEvents } from '../follow.js';
import { JobSchema, problemResponses } from '../schemas.js';
import {
  ClaimCreateSchema,
  ClaimExtendSchema,
  ClaimViewSchema,
  ClaimWaitQuery,
  HeartbeatSchema,
  RefParams,
} from './pool-claim-schemas.js';

export function claimRoutes(deps: { claims: ClaimService; ownership: Ownership }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { claims } = deps;
    const tags = ['claims'];

    app.post(
      '/claims',
      {
        config: {
          access: { handled: 'in-handler', why: 'operator in the pool’s team; other teams’ pools are as absent' },
        },
        schema: {
          tags,
          summary: 'Claim a cluster from a named pool, or from the best pool matching attributes across hubs',
          body: ClaimCreateSchema,
          querystring: ClaimWaitQuery,
          response: { 201: ClaimViewSchema, 200: ClaimViewSchema, ...problemResponses(400, 404, 409, 422) },
        },
      },
      async (req, reply) => {
        const created = await claims.create(
          req.body,
          req.principal,
          req.idempotency,
          claimAccess(req.caller, deps.ownership),
        );
        const ref = { hub: created.hub, namespace: created.namespace, name: created.name };
        const wait = req.query.wait;
        const view = wait
          ? await longPoll(
              reply,
              (signal) => claims.wait(ref, wait, signal),
              () => claims.get(ref),
            ).catch(() => created)
          : created;
        return reply.code(201).header('location', `/v1/claims/${view.id}`).send(view);
      },
    );

    app.get(
      '/claims',
      {
        config: { access: { handled: 'in-handler', why: 'lists the claims of the caller’s teams' } },
        schema: {
          tags,
          summary: 'Claims across hubs, oldest first, a page at a time (pass nextCursor back as cursor)',
          querystring: Type.Object({
            hub: Type.Optional(Type.String()),
            namespace: Type.Optional(Type.String()),
            pool: Type.Optional(Type.String({ description: '`hub/namespace/name` of a pool' })),
            phase: Type.Optional(
              Type.Union(
                ['Pending', 'Starting', 'Running', 'Hibernating', 'Releasing', 'ClusterLost'].map((p) =>
                  Type.Literal(p),
                ),
              ),
            ),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
            cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
          }),
          response: {
            200: Type.Object({
              items: Type.Array(ClaimViewSchema),
              nextCursor: Type.Optional(
                Type.String({ description: 'Pass as cursor for the next page; absent on the last page' }),
              ),
              total: Type.Integer({ description: 'Matches across all pages' }),
            }),
            ...problemResponses(400, 422),
          },
        },
      },
      async (req) => {
        const sees = visibilityOf(req.caller, deps.ownership);
        return claims.list(req.query, sees.everything ? undefined : sees.claim);
      },
    );

    app.get(
      '/claims/:hub/:namespace/:name',
      {
        config: { access: { object: 'claim', role: 'viewer' } },
        schema: {
          tags,
          summary:
            'A claim: phase, why it is pending (queue position, pool capacity, resume step), ETA, cluster URLs, lifetime',
          params: RefParams,
          querystring: ClaimWaitQuery,
          response: { 200: ClaimViewSchema, ...problemResponses(404) },
        },
      },
      async (req, reply) => {
        const wait = req.query.wait;
        return wait
          ? longPoll(
              reply,
              (signal) => claims.wait(req.params, wait, signal),
              () => claims.get(req.params),
            )
          : claims.get(req.params);
      },
    );

    app.get(
      '/claims/:hub/:namespace/:name/events',
      {
        config: { access: { object: 'claim', role: 'viewer' } },
        schema: {
          tags,
          summary: 'Server-Sent Events: an `event: claim` with the whole claim on every change, until it is gone',
          params: RefParams,
          produces: ['text/event-stream'],
          response: {
            200: {
              description: 'text/event-stream of `event: claim` messages',
              content: { 'text/event-stream': { schema: Type.String() } },
            },
            ...problemResponses(404),
          },
        },
      },
      async (req, reply) => {
        await claims.get(req.params); // 404 before the stream starts, and the cache has the claim
        const id = `${req.params.hub}/${req.params.namespace}/${req.params.name}`;
        // Every change was sent as it happened: at shutdown the stream just ends and the client reconnects.
        await streamEvents(reply, {
          follow: (stream) =>
            claims.watch(
              req.params,
              (view) => stream.send('claim', view),
              () => {
                stream.send('gone', { id });
                stream.end();
              },
            ),
        });
      },
    );

    app.get(
      '/claims/:hub/:namespace/:name/kubeconfig',
      {
        config: { access: { object: 'claim', role: 'operator' } },
        schema: {
          tags,
          summary: "The claimed cluster's admin kubeconfig (YAML text)",
          params: RefParams,
          produces: ['application/yaml'],
          response: {
            200: { description: 'kubeconfig', content: { 'application/yaml': { schema: Type.String() } } },
            ...problemResponses(404, 409),
          },
        },
      },
      async (req, reply) =>
        reply
          .type('application/yaml; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(await claims.kubeconfig(req.params)),
    );

    app.get(
      '/claims/:hub/:namespace/:name/credentials',
      {
        config: { access: { object: 'claim', role: 'operator' } },
        schema: {
          tags,
          summary: "The claimed cluster's API and console URLs and kubeadmin credentials",
          params: RefParams,
          response: {
            200: Type.Object({
              claim: Type.String(),
              cluster: Type.Optional(Type.String()),
              apiURL: Type.Optional(Type.String()),
              webConsoleURL: Type.Optional(Type.String()),
              username: Type.Optional(Type.String()),
              password: Type.Optional(Type.String()),
            }),
            ...problemResponses(404, 409),
          },
        },
      },
      async (req, reply) => reply.header('cache-control', 'no-store').send(await claims.credentials(req.params)),
    );

    app.patch(
      '/claims/:hub/:namespace/:name',
      {
        config: { access: { object: 'claim', role: 'operator' } },
        schema: {
          tags,
          summary:
            'Extend the lifetime (capped by the pool maximum and policy; refused with the reason beyond ' +
            'them); recorded (who, from, to, why) in the lifetime history, an audit log line and an ' +
            'Event',
          params: RefParams,
          body: ClaimExtendSchema,
          response: { 200: ClaimViewSchema, ...problemResponses(400, 404, 409, 422) },
        },
      },
      async (req) => claims.extend(req.params, req.body, auditOrigin(req)),
    );

    app.post(
      '/claims/:hub/:namespace/:name/heartbeat',
      {
        config: { access: { object: 'claim', role: 'operator' } },
        schema: {
          tags,
          summary: "Renew the claim's heartbeat Lease; without heartbeats the claim is released after its timeout",
          params: RefParams,
          body: Type.Optional(HeartbeatSchema),
          response: {
            200: Type.Object({
              claim: Type.String(),
              renewedAt: Type.String(),
              expiresAt: Type.String(),
              timeoutSeconds: Type.Number(),
            }),
            ...problemResponses(404, 409, 422),
          },
        },
      },
      async (req) => claims.heartbeat(req.params, req.body?.holder ?? req.principal),
    );

    app.delete(
      '/claims/:hub/:namespace/:name',
      {
        config: { access: { object: 'claim', role: 'operator' } },
        schema: {
          tags,
          summary: 'Release the claim now; Hive deprovisions the cluster, followed by the returned job',
          params: RefParams,
          response: { 202: Type.Object({ claim: ClaimViewSchema, job: JobSchema }), ...problemResponses(404, 409) },
        },
      },
      async (req, reply) => {
        const { claim, job } = await claims.release(req.params, req.principal);
        return reply
          .code(202)
          .header('location', `/v1/jobs/${encodeURIComponent(job.id)}`)
          .send({ claim, job });
      },
    );
  };
}
