// /v1/relocations: move clusters between hubs through Hive's ClusterRelocate, with preflight, waves, progress,
// an event stream and abort. Thin: schema -> relocation service -> reply.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { RelocationService } from '../../services/relocations/relocation-service.js';
import { requester } from '../audit.js';
import { longPoll, streamEvents } from '../follow.js';
import { problem, sendProblem } from '../problem.js';
import { problemResponses } from '../schemas.js';
import {
  AbortBody,
  AbortQuery,
  DryRunSchema,
  RelocationAcceptedSchema,
  RelocationListQuery,
  RelocationParams,
  RelocationProblemSchema,
  RelocationRequestSchema,
  RelocationViewSchema,
} from './relocation-schemas.js';
import { inHandler } from './team-scoped.js';

export function relocationRoutes(deps: { relocations: RelocationService }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { relocations } = deps;
    const tags = ['relocations'];
    const byLabel = inHandler("the relocation's team label: viewer to read, admin to create or abort");

    app.post(
      '/relocations',
      {
        schema: {
          tags,
          summary:
            "Relocate clusters from one hub to another through Hive's ClusterRelocate: preflight every cluster " +
            '(dryRun: only that), then record the Relocation and run it in waves as a job',
          body: RelocationRequestSchema,
          response: {
            200: DryRunSchema,
            202: RelocationAcceptedSchema,
            ...problemResponses(400, 403, 409),
            422: {
              description:
                'Refused, nothing created: `errors` names each bad field, or `report` says which clusters fail ' +
                'preflight, why, and the fix',
              content: { 'application/problem+json': { schema: RelocationProblemSchema } },
            },
          },
        },
        config: byLabel,
      },
      async (req, reply) => {
        const outcome = await relocations.create(req.body, requester(req), req.caller);
        if (outcome.kind === 'dryRun') return reply.code(200).send({ dryRun: true as const, report: outcome.report });
        if (outcome.kind === 'refused')
          return sendProblem(reply, {
            ...problem(422, 'PreflightFailed', outcome.message),
            report: outcome.report,
          } as never);
        return reply
          .code(202)
          .header('location', outcome.relocation.links.self)
          .send({ relocation: outcome.relocation, job: outcome.job, report: outcome.report });
      },
    );

    app.get(
      '/relocations',
      {
        schema: {
          tags,
          summary: 'Relocations, newest first, from the informer cache; filter by phase',
          querystring: RelocationListQuery,
          response: { 200: Type.Object({ items: Type.Array(RelocationViewSchema) }), ...problemResponses(400) },
        },
        config: byLabel,
      },
      async (req) => ({ items: relocations.list(req.caller, req.query.phase ? { phase: req.query.phase } : {}) }),
    );

    app.get(
      '/relocations/:id',
      {
        schema: {
          tags,
          summary: "One relocation: each cluster's wave, state and hub, progress counts, waves, ETA, its job",
          params: RelocationParams,
          response: { 200: RelocationViewSchema, ...problemResponses(404) },
        },
        config: byLabel,
      },
      async (req) => relocations.get(req.params.id, req.caller),
    );

    app.get(
      '/relocations/:id/events',
      {
        schema: {
          tags,
          summary:
            'Server-Sent Events: an `event: relocation` with the whole relocation on every change, until it ends ' +
            '(or `event: gone` if it is deleted)',
          params: RelocationParams,
          produces: ['text/event-stream'],
          response: {
            200: {
              description: 'text/event-stream of `event: relocation` messages, each `data:` a Relocation',
              content: { 'text/event-stream': { schema: Type.String() } },
            },
            ...problemResponses(404),
          },
        },
        config: byLabel,
      },
      async (req, reply) => {
        const first = await relocations.load(req.params.id, req.caller); // 404 before the stream starts
        const id = first.metadata.name;
        await streamEvents(reply, {
          follow: (stream) =>
            relocations.watch(
              first,
              (view) => stream.send('relocation', view),
              (gone) => {
                if (gone) stream.send('gone', { id });
                stream.end();
              },
            ),
          // The stream ends with the relocation as it is now; the client reconnects to another replica.
          atShutdown: async (stream) => {
            const view = await relocations.get(id, req.caller).catch(() => undefined);
            if (view) stream.send('relocation', view);
          },
        });
      },
    );

    app.post(
      '/relocations/:id/abort',
      {
        schema: {
          tags,
          summary:
            'Abort: no further wave starts, in-flight moves are aborted by removing the match (never by deleting ' +
            'a ClusterDeployment); waits up to `wait` seconds for Aborted and answers where each cluster is',
          params: RelocationParams,
          querystring: AbortQuery,
          body: Type.Optional(AbortBody),
          response: {
            200: RelocationViewSchema,
            202: RelocationViewSchema,
            ...problemResponses(403, 404, 409, 422),
          },
        },
        config: byLabel,
        // `curl -X POST …/abort` sends no body at all: that is an abort without a `by`.
        preValidation: async (req) => {
          req.body ??= {};
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        const asked = await relocations.abort(id, req.body?.by ?? req.principal, req.caller);
        const view = asked.terminal
          ? asked
          : await longPoll(
              reply,
              (signal) => relocations.waitTerminal(id, req.query.wait, signal),
              () => relocations.get(id, req.caller),
            );
        return reply
          .code(view.terminal ? 200 : 202)
          .header('location', view.links.self)
          .send(view);
      },
    );
  };
}
