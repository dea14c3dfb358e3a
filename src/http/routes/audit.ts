// GET /v1/audit: the audit trail (docs/audit.md) for admins. A platform admin sees every record; a team admin the
// records of the objects their teams own; anyone else is refused. Read from the audit Events on every hub, so it
// reaches back as far as the hubs keep Events (the API server's event TTL); the log stream keeps the rest.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { roleIn } from '../../auth/caller.js';
import { Forbidden } from '../../hive/errors.js';
import { listAuditRecords } from '../../services/audit/audit-query.js';
import type { HiveStore } from '../../services/ports.js';
import { problemResponses } from '../schemas.js';

const closed = { additionalProperties: false } as const;
const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 253, description }));
const Outcome = Type.Union([Type.Literal('allowed'), Type.Literal('refused'), Type.Literal('failed')]);

const AuditQuery = Type.Object(
  {
    actor: Text("The caller's name (or the `by` a request gave)"),
    team: Text('The team owning the object'),
    action: Text('An operationId, e.g. hibernateCluster'),
    hub: Text("The object's hub"),
    namespace: Text("The object's namespace"),
    name: Text("The object's name"),
    result: Type.Optional(Outcome),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or after this time' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or before this time' })),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    cursor: Type.Optional(Type.String({ maxLength: 1024, description: 'nextCursor of the previous page' })),
  },
  closed,
);

export const AuditRecordSchema = Type.Object(
  {
    id: Type.String(),
    time: Type.String({ format: 'date-time' }),
    requestId: Type.String({ description: 'X-Request-Id of the request' }),
    actor: Type.Object({
      name: Type.String(),
      via: Type.String({ description: 'token, oidc, serviceaccount, open; none when sign-in failed' }),
      role: Type.Optional(Type.String({ description: "The caller's role in the object's team" })),
      onBehalfOf: Type.Optional(Type.String({ description: '`by` as the request gave it' })),
    }),
    team: Type.Optional(Type.String({ description: "The object's team; absent: no team's" })),
    action: Type.String({ description: "The route's operationId", examples: ['hibernateCluster'] }),
    route: Type.String({ examples: ['POST /v1/clusters/:hub/:namespace/:name/hibernate'] }),
    object: Type.Object({
      kind: Type.Optional(Type.String()),
      hub: Type.Optional(Type.String()),
      namespace: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
    }),
    result: Type.Object({ status: Type.Integer(), outcome: Outcome }),
    reason: Type.Optional(Type.String({ description: '`reason` as the request gave it' })),
  },
  { title: 'AuditRecord' },
);

const AuditPageSchema = Type.Object(
  {
    items: Type.Array(AuditRecordSchema),
    nextCursor: Type.Optional(Type.String()),
    unreachableHubs: Type.Optional(
      Type.Array(Type.String(), { description: 'Hubs whose Events could not be read: their records are missing' }),
    ),
  },
  { title: 'AuditPage' },
);

export function auditRoutes(deps: { store: Pick<HiveStore, 'hubNames' | 'list'> }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/audit',
      {
        // Checked below: who may read which records depends on each record's team.
        config: {
          access: { handled: 'in-handler', why: "admins of a team read its objects' records; platform admins all" },
        },
        schema: {
          tags: ['audit'],
          summary:
            'Audit records (who, team, action, object, result, request id) of mutating requests and secret reads, ' +
            "newest first; platform admins see all, team admins their teams' objects. Kept as long as the hubs " +
            'keep Events; the log stream is the long-term record',
          querystring: AuditQuery,
          response: { 200: AuditPageSchema, ...problemResponses(400, 403, 422) },
        },
      },
      async (req) => {
        const caller = req.caller;
        if (!caller.platformAdmin && !caller.grants.some((g) => g.role === 'admin'))
          throw new Forbidden('reading the audit trail needs the admin role in a team (or platform admin)');
        return listAuditRecords(deps.store, req.query, (r) => roleIn(caller, r.team) === 'admin');
      },
    );
  };
}
