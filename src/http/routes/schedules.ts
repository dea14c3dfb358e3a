// /v1/schedules and the per-cluster schedule views and overrides: thin routes (schema -> service -> reply). Their
// schemas are in schedule-schemas.ts; the service checks the values field by field (422 with every bad field).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OverrideTypeSchema } from '../../hive/resources/cluster-override.js';
import type { JobQueue } from '../../services/ports.js';
import type { ScheduleService } from '../../services/schedules/index.js';
import { requester } from '../audit.js';
import { replyWithJob } from '../reply-job.js';
import { JobEnvelopeSchema, problemResponses } from '../schemas.js';
import { ClusterParams } from './cluster-schemas.js';
import { inHandler } from './team-scoped.js';
import {
  ClusterScheduleView,
  Name,
  OverrideBody,
  OverrideView,
  PreviewQuery,
  PreviewView,
  Range,
  ScheduleBody,
  SchedulePutBody,
  ScheduleView,
} from './schedule-schemas.js';

export function scheduleRoutes(deps: { schedules: ScheduleService; queue: JobQueue }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { schedules } = deps;
    const tags = ['schedules'];
    const NameParams = Type.Object({ name: Name });
    const byLabel = inHandler("the schedule's team label: viewer to read, admin to change or run");
    const byCluster = inHandler("the cluster's team: viewer to read, operator to change overrides");

    app.get(
      '/schedules',
      {
        schema: {
          tags,
          summary: 'Hibernation schedules with their next action (those of your teams)',
          response: { 200: Type.Object({ items: Type.Array(ScheduleView) }), ...problemResponses() },
        },
        config: byLabel,
      },
      async (req) => ({
        items: await schedules.list(req.caller),
      }),
    );

    app.post(
      '/schedules',
      {
        schema: {
          tags,
          summary: 'Create a hibernation schedule (stored as a HibernationSchedule resource)',
          body: ScheduleBody,
          response: { 201: ScheduleView, ...problemResponses(400, 403, 409, 422) },
        },
        config: byLabel,
      },
      async (req, reply) =>
        reply.code(201).send(await schedules.create(req.body as Record<string, unknown>, req.caller, req.idempotency)),
    );

    app.get(
      '/schedules/:name',
      {
        schema: {
          tags,
          summary: 'One schedule',
          params: NameParams,
          response: { 200: ScheduleView, ...problemResponses(404) },
        },
        config: byLabel,
      },
      async (req) => schedules.get(req.params.name, req.caller),
    );

    app.put(
      '/schedules/:name',
      {
        schema: {
          tags,
          summary: 'Replace a schedule',
          params: NameParams,
          body: SchedulePutBody,
          response: { 200: ScheduleView, ...problemResponses(400, 403, 404, 409, 422) },
        },
        config: byLabel,
      },
      async (req) => schedules.replace(req.params.name, req.body as Record<string, unknown>, req.caller),
    );

    app.delete(
      '/schedules/:name',
      {
        schema: {
          tags,
          summary: 'Delete a schedule',
          params: NameParams,
          response: { 204: Type.Null(), ...problemResponses(403, 404) },
        },
        config: byLabel,
      },
      async (req, reply) => {
        await schedules.remove(req.params.name, req.caller);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/schedules/:name/preview',
      {
        schema: {
          tags,
          summary: 'Upcoming actions in the zone and UTC, with the clusters each touches or skips (and why)',
          params: NameParams,
          querystring: PreviewQuery,
          response: { 200: PreviewView, ...problemResponses(400, 404, 422) },
        },
        config: byLabel,
      },
      async (req) =>
        schedules.preview(req.params.name, req.caller, {
          from: req.query.from,
          days: req.query.days,
          clusters: req.query.clusters,
        }),
    );

    app.post(
      '/schedules/:name/run',
      {
        schema: {
          tags,
          summary:
            "Apply the state the schedule says now to its clusters, as the preview's runNow shows; with dryRun, report what would happen",
          description:
            'Overrides and safety rules hold as at an edge; a run uses no skip-next-hibernation override up (it still skips the next scheduled hibernation).',
          params: NameParams,
          querystring: Type.Object({
            dryRun: Type.Optional(Type.Boolean()),
            wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
          }),
          response: { 200: JobEnvelopeSchema, 202: JobEnvelopeSchema, ...problemResponses(403, 404) },
        },
        config: byLabel,
      },
      async (req, reply) => {
        await replyWithJob(
          reply,
          deps.queue,
          await schedules.run(req.params.name, req.caller, { dryRun: req.query.dryRun, requester: requester(req) }),
          req.query.wait,
        );
        return reply;
      },
    );

    app.get(
      '/clusters/:hub/:namespace/:name/schedule',
      {
        schema: {
          tags,
          summary: "This cluster's schedule, desired state, overrides, flags and next actions, each with its reason",
          params: ClusterParams,
          querystring: Range,
          response: { 200: ClusterScheduleView, ...problemResponses(400, 404, 422) },
        },
        config: byCluster,
      },
      async (req) =>
        schedules.clusterSchedule(req.params.hub, req.params.namespace, req.params.name, req.caller, {
          from: req.query.from,
          days: req.query.days,
        }),
    );

    app.get(
      '/clusters/:hub/:namespace/:name/overrides',
      {
        schema: {
          tags,
          summary: 'Overrides on this cluster and whether they still hold',
          params: ClusterParams,
          response: { 200: Type.Object({ items: Type.Array(OverrideView) }), ...problemResponses(404) },
        },
        config: byCluster,
      },
      async (req) => ({
        items: schedules.listOverrides(req.params.hub, req.params.namespace, req.params.name, req.caller),
      }),
    );

    app.post(
      '/clusters/:hub/:namespace/:name/overrides',
      {
        schema: {
          tags,
          summary: 'Keep the cluster awake until a time, or skip its next hibernation; lapses by itself',
          params: ClusterParams,
          body: OverrideBody,
          response: { 201: OverrideView, ...problemResponses(400, 403, 404, 422) },
        },
        config: byCluster,
      },
      async (req, reply) =>
        reply
          .code(201)
          .send(
            await schedules.createOverride(
              req.params.hub,
              req.params.namespace,
              req.params.name,
              req.body,
              req.caller,
              req.idempotency,
            ),
          ),
    );

    app.delete(
      '/clusters/:hub/:namespace/:name/overrides',
      {
        schema: {
          tags,
          summary: 'Remove overrides (all, or one type)',
          params: ClusterParams,
          querystring: Type.Object({ type: Type.Optional(OverrideTypeSchema) }),
          response: { 200: Type.Object({ removed: Type.Array(Type.String()) }), ...problemResponses(403, 404) },
        },
        config: byCluster,
      },
      async (req) => ({
        removed: await schedules.deleteOverrides(
          req.params.hub,
          req.params.namespace,
          req.params.name,
          req.caller,
          req.query.type,
        ),
      }),
    );
  };
}
