// /v1/clusters: thin routes (schema -> service -> reply). Mutations answer 202 with a job, or 200 once it ended
// when the caller passes ?wait=<seconds>.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { visibilityOf, type Ownership } from '../../auth/authorize.js';
import type { ClusterService } from '../../services/clusters/cluster-service.js';
import type { JobQueue } from '../../services/ports.js';
import { auditOrigin, requester } from '../audit.js';
import { replyWithJob } from '../reply-job.js';
import { JSON_UTF8, sendSharedPage, sharedJson } from '../shared-bodies.js';
import { JobEnvelopeSchema, problemResponses, WaitQuery } from '../schemas.js';
import {
  ClusterCreateSchema,
  ClusterListQuery,
  ClusterPageSchema,
  ClusterParams,
  ClusterSummarySchema,
  CredentialsSchema,
  ExpiryBody,
  ExpiryResultSchema,
} from './cluster-schemas.js';

/** A list item's schema as reply.serializeInput types it (a plain record; TypeBox's object type is no such thing). */
const ITEM_SCHEMA = ClusterSummarySchema as unknown as Record<string, unknown>;

const jobAnswers = { 200: JobEnvelopeSchema, 202: JobEnvelopeSchema };

export function clusterRoutes(deps: {
  clusters: ClusterService;
  queue: JobQueue;
  ownership: Ownership;
}): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { clusters, queue } = deps;
    const tags = ['clusters'];

    app.get(
      '/clusters',
      {
        config: { access: { handled: 'in-handler', why: 'lists the clusters of the caller’s teams' } },
        schema: {
          tags,
          summary: 'ClusterDeployments across hubs, from the informer cache; filtered and paged',
          querystring: ClusterListQuery,
          response: { 200: ClusterPageSchema, ...problemResponses(400, 422) },
        },
      },
      (req, reply) => {
        const sees = visibilityOf(req.caller, deps.ownership);
        const page = clusters.list(req.query, sees.everything ? undefined : sees.cluster);
        // Items are shared per cached object (list-clusters.ts), so is their JSON (shared-bodies.ts).
        const serialize = (v: object) => reply.serializeInput(v as Record<string, unknown>, ITEM_SCHEMA);
        sendSharedPage(reply as FastifyReply, page, (item) => sharedJson(item, serialize));
      },
    );

    app.post(
      '/clusters',
      {
        config: { access: { create: 'cluster', role: 'admin' } },
        schema: {
          tags,
          summary:
            'Create a cluster: install-config Secret, optional namespace and inline Secrets, the ClusterDeployment; the job follows the install',
          body: ClusterCreateSchema,
          querystring: WaitQuery,
          response: { ...jobAnswers, ...problemResponses(400, 409, 422) },
        },
      },
      async (req, reply) => {
        await replyWithJob(
          reply,
          queue,
          await clusters.create(req.body, auditOrigin(req), requester(req)),
          req.query.wait,
        );
        return reply;
      },
    );

    app.get(
      '/clusters/:hub/:namespace/:name',
      {
        config: { access: { object: 'cluster', role: 'viewer' } },
        schema: {
          tags,
          summary: 'One cluster in plain words: phase, power state, URLs, version, pool/claim, expiry, conditions',
          params: ClusterParams,
          querystring: Type.Object({
            raw: Type.Optional(Type.Boolean({ description: 'Include the ClusterDeployment as stored' })),
          }),
          response: { 200: ClusterSummarySchema, ...problemResponses(404) },
        },
      },
      (req, reply) => {
        // Without `raw` the view is shared per cached object (the service's WeakMap), so is its body: serialised
        // once by this route's own serializer (fast-json-stringify's, a string) and sent as is. A cached cluster
        // is answered synchronously: no promise, no microtask turn (issue 14: a single get's whole own work is a
        // few of those).
        const send = (view: object): void => {
          // The plain reply type: the typed one only takes the schema's object, not its serialised form.
          (reply as FastifyReply).type(JSON_UTF8).send(sharedJson(view, (v) => reply.serialize(v) as string));
        };
        const raw = req.query.raw === true;
        const cached = raw ? undefined : clusters.cachedView(req.params);
        if (cached) return send(cached);
        return clusters.get(req.params, { raw }).then((view) => {
          if (raw) reply.send(view);
          else send(view);
        });
      },
    );

    for (const [action, run] of [
      ['hibernate', clusters.hibernate],
      ['resume', clusters.resume],
    ] as const) {
      app.post(
        `/clusters/:hub/:namespace/:name/${action}`,
        {
          config: { access: { object: 'cluster', role: 'operator' } },
          schema: {
            tags,
            summary:
              action === 'hibernate'
                ? "Hibernate: set spec.powerState=Hibernating and follow Hive's status.powerState steps until Hibernating"
                : "Resume: set spec.powerState=Running and follow Hive's resume steps (1/4..4/4) until Running",
            params: ClusterParams,
            querystring: WaitQuery,
            response: { ...jobAnswers, ...problemResponses(404, 409) },
          },
        },
        async (req, reply) => {
          await replyWithJob(reply, queue, await run(req.params, requester(req)), req.query.wait);
          return reply;
        },
      );
    }

    app.delete(
      '/clusters/:hub/:namespace/:name',
      {
        config: { access: { object: 'cluster', role: 'admin' } },
        schema: {
          tags,
          summary: 'Delete and follow deprovision to the end; protected clusters answer 409 unless liftProtection=true',
          params: ClusterParams,
          querystring: Type.Object({
            ...WaitQuery.properties,
            liftProtection: Type.Optional(
              Type.Boolean({
                description: 'First set hive.openshift.io/protected-delete to "false" (recorded as an Event)',
              }),
            ),
          }),
          response: { ...jobAnswers, ...problemResponses(404, 409) },
        },
      },
      async (req, reply) => {
        await replyWithJob(
          reply,
          queue,
          await clusters.delete(req.params, {
            liftProtection: req.query.liftProtection === true,
            requester: requester(req),
          }),
          req.query.wait,
        );
        return reply;
      },
    );

    app.put(
      '/clusters/:hub/:namespace/:name/expiry',
      {
        // Within policy: the ExpiryPolicy's maxLifetime still caps it (422 beyond).
        config: { access: { object: 'cluster', role: 'operator' } },
        schema: {
          tags,
          summary:
            "Set, shorten, extend or clear expiry; written as Hive's hive.openshift.io/delete-after (a " +
            'duration from creationTimestamp) and recorded (who, from, to, why) in the expiry history, ' +
            "an audit log line and an Event. Beyond the covering ExpiryPolicy's maxLifetime (from " +
            'creation) it is refused with 422',
          params: ClusterParams,
          body: ExpiryBody,
          response: { 200: ExpiryResultSchema, ...problemResponses(400, 404, 409, 422) },
        },
      },
      async (req) => clusters.setExpiry(req.params, req.body, auditOrigin(req)),
    );

    app.get(
      '/clusters/:hub/:namespace/:name/kubeconfig',
      {
        config: { access: { object: 'cluster', role: 'operator' } },
        schema: {
          tags,
          summary: 'The admin kubeconfig Hive stored for the cluster (YAML)',
          params: ClusterParams,
          produces: ['application/yaml'],
          response: { 200: Type.String({ description: 'kubeconfig YAML' }), ...problemResponses(404, 409) },
        },
      },
      async (req, reply) => {
        const text = await clusters.kubeconfig(req.params);
        return reply.header('cache-control', 'no-store').type('application/yaml').send(text);
      },
    );

    app.get(
      '/clusters/:hub/:namespace/:name/credentials',
      {
        config: { access: { object: 'cluster', role: 'operator' } },
        schema: {
          tags,
          summary: 'The kubeadmin username and password Hive stored for the cluster',
          params: ClusterParams,
          response: { 200: CredentialsSchema, ...problemResponses(404, 409) },
        },
      },
      async (req, reply) => reply.header('cache-control', 'no-store').send(await clusters.credentials(req.params)),
    );
  };
}
