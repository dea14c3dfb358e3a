// Expiry beyond setting it (PUT /v1/clusters/.../expiry lives with the cluster routes): the view with policy
// limits and audit history, capped and audited extensions, expiry policies, webhook endpoints and the
// warnings list.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ExpiryPolicySpecSchema, ExpiryPolicyViewSchema } from '../../hive/resources/expiry-policy.js';
import { WebhookRequestSchema, WebhookViewSchema } from '../../hive/resources/webhook-endpoint.js';
import type { ExpiryService } from '../../services/expiry/index.js';
import type { createWebhookService } from '../../services/notify/index.js';
import { auditOrigin, By, Reason } from '../audit.js';
import { requestShape, responseShape } from '../request-shape.js';
import { ExpiryHistoryEntrySchema, problemResponses } from '../schemas.js';
import { ClusterParams } from './cluster-schemas.js';
import { inHandler, TeamField } from './team-scoped.js';

const open = { additionalProperties: true } as const;
const closed = { additionalProperties: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 63, description: 'DNS label' });
const Duration = Type.String({ description: 'Go duration (h, m, s; no d)', examples: ['8h'] });
const ExpiryView = Type.Object(
  { cluster: Type.Object({}, open), limits: Type.Object({}, open), history: Type.Array(ExpiryHistoryEntrySchema) },
  open,
);
const ExtendBody = Type.Object(
  {
    extendBy: Type.Optional(Duration),
    until: Type.Optional(Type.String({ description: 'New expiry, ISO 8601' })),
    by: Type.Optional(By),
    reason: Reason,
  },
  { additionalProperties: false, description: 'Exactly one of extendBy and until' },
);
const PolicyProps = requestShape(ExpiryPolicySpecSchema).properties;
const PolicyView = responseShape(ExpiryPolicyViewSchema);
const WebhookBody = requestShape(WebhookRequestSchema);
const WebhookView = responseShape(WebhookViewSchema);

export function expiryRoutes(deps: {
  expiry: ExpiryService;
  webhooks: ReturnType<typeof createWebhookService>;
}): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const { expiry, webhooks } = deps;
    const tags = ['expiry'];
    const NameParams = Type.Object({ name: Name });
    const byCluster = inHandler("the cluster's team: viewer to read, operator to extend");
    const byLabel = inHandler("the object's team label: viewer to read, admin to change");

    app.get(
      '/clusters/:hub/:namespace/:name/expiry',
      {
        schema: {
          tags,
          summary: 'Expiry, the policy limits in force, and the audited history of changes',
          params: ClusterParams,
          response: { 200: ExpiryView, ...problemResponses(404) },
        },
        config: byCluster,
      },
      async (req) => expiry.get(req.params, req.caller),
    );

    app.post(
      '/clusters/:hub/:namespace/:name/expiry/extend',
      {
        schema: {
          tags,
          summary:
            'Extend expiry, capped by the policy maximum lifetime; recorded (who, from, to, why) in the history annotation, an audit log line and an Event',
          params: ClusterParams,
          body: ExtendBody,
          response: { 200: ExpiryView, ...problemResponses(400, 403, 404, 409, 422) },
        },
        config: byCluster,
      },
      async (req) => expiry.extend(req.params, req.body, auditOrigin(req), req.caller),
    );

    app.get(
      '/warnings',
      {
        schema: {
          tags,
          summary:
            'Upcoming deletions with their warnings (delivered, next due) and clusters hibernated for close to 90 days',
          response: { 200: Type.Object({}, open), ...problemResponses() },
        },
        config: inHandler('filtered to the clusters and claims of your teams'),
      },
      async (req) => expiry.warnings(req.caller),
    );

    app.post(
      '/expiry/sweep',
      {
        schema: {
          tags,
          summary:
            "Impose the expiry policies' defaults and caps on every cluster now; with dryRun, report what would change and change nothing",
          querystring: Type.Object({
            dryRun: Type.Optional(Type.Boolean()),
            includeDryRunPolicies: Type.Optional(
              Type.Boolean({
                description: 'With dryRun: also count policies marked dryRun (preview a policy before enabling it)',
              }),
            ),
          }),
          response: {
            200: Type.Object({
              dryRun: Type.Boolean(),
              at: Type.String(),
              policies: Type.Array(Type.String()),
              changes: Type.Array(Type.Object({}, open)),
              failed: Type.Array(Type.Object({}, open)),
            }),
            ...problemResponses(400, 403, 422),
          },
        },
        config: inHandler('platform admins only: it spans every team'),
      },
      async (req) => expiry.sweep(req.query, auditOrigin(req), req.caller),
    );

    app.get(
      '/expiry-policies',
      {
        schema: {
          tags,
          summary: 'Expiry policies (those of your teams)',
          response: { 200: Type.Object({ items: Type.Array(PolicyView) }), ...problemResponses() },
        },
        config: byLabel,
      },
      async (req) => ({ items: expiry.policies.list(req.caller) }),
    );
    app.post(
      '/expiry-policies',
      {
        schema: {
          tags,
          summary: 'Create an expiry policy',
          body: Type.Object({ name: Name, team: Type.Optional(TeamField), ...PolicyProps }, closed),
          response: { 201: PolicyView, ...problemResponses(400, 403, 409, 422) },
        },
        config: byLabel,
      },
      async (req, reply) =>
        reply
          .code(201)
          .send(await expiry.policies.create(req.body as Record<string, unknown>, req.caller, req.idempotency)),
    );
    app.get(
      '/expiry-policies/:name',
      {
        schema: {
          tags,
          summary: 'One expiry policy',
          params: NameParams,
          response: { 200: PolicyView, ...problemResponses(404) },
        },
        config: byLabel,
      },
      async (req) => expiry.policies.get(req.params.name, req.caller),
    );
    app.put(
      '/expiry-policies/:name',
      {
        schema: {
          tags,
          summary: 'Replace an expiry policy',
          params: NameParams,
          body: Type.Object({ name: Type.Optional(Name), team: Type.Optional(TeamField), ...PolicyProps }, closed),
          response: { 200: PolicyView, ...problemResponses(400, 403, 404, 422) },
        },
        config: byLabel,
      },
      async (req) => expiry.policies.replace(req.params.name, req.body as Record<string, unknown>, req.caller),
    );
    app.delete(
      '/expiry-policies/:name',
      {
        schema: {
          tags,
          summary: 'Delete an expiry policy',
          params: NameParams,
          response: { 204: Type.Null(), ...problemResponses(403, 404) },
        },
        config: byLabel,
      },
      async (req, reply) => {
        await expiry.policies.remove(req.params.name, req.caller);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/webhooks',
      {
        schema: {
          tags,
          summary: 'Webhook endpoints for warnings (URLs redacted, keys never shown)',
          response: { 200: Type.Object({ items: Type.Array(WebhookView) }), ...problemResponses() },
        },
        config: byLabel,
      },
      async (req) => ({ items: webhooks.list(req.caller) }),
    );
    app.get(
      '/webhooks/:name',
      {
        schema: {
          tags,
          summary: 'One webhook endpoint (URL redacted, key never shown)',
          params: NameParams,
          response: { 200: WebhookView, ...problemResponses(404) },
        },
        config: byLabel,
      },
      async (req) => webhooks.get(req.params.name, req.caller),
    );
    app.put(
      '/webhooks/:name',
      {
        schema: {
          tags,
          summary: 'Create or replace a webhook endpoint (generic JSON signed with HMAC-SHA256, or Slack)',
          params: NameParams,
          body: WebhookBody,
          response: { 200: WebhookView, ...problemResponses(400, 403, 409, 422) },
        },
        config: byLabel,
      },
      async (req) => webhooks.put(req.params.name, req.body, req.caller),
    );
    app.delete(
      '/webhooks/:name',
      {
        schema: {
          tags,
          summary: 'Delete a webhook endpoint',
          params: NameParams,
          response: { 204: Type.Null(), ...problemResponses(403, 404) },
        },
        config: byLabel,
      },
      async (req, reply) => {
        await webhooks.remove(req.params.name, req.caller);
        return reply.code(204).send(null);
      },
    );
  };
}
