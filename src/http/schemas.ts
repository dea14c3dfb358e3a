// Schemas shared by every route: jobs, problems (RFC 9457), expiry history entries and the `?wait` query.
import { Type, type Static } from 'typebox';
import { EXPIRY_ACTIONS, type ExpiryHistoryEntry } from '../hive/expiry/history.js';
import { FieldIssueSchema } from '../hive/resources/shared.js';

export const JobTargetSchema = Type.Object(
  {
    kind: Type.String({ description: 'Kubernetes kind, e.g. ClusterDeployment' }),
    hub: Type.String(),
    namespace: Type.Optional(Type.String()),
    name: Type.String(),
  },
  { description: 'The object the job acts on.' },
);

export const JobStepSchema = Type.Object({
  step: Type.String({ description: 'A short label, e.g. a Hive power state such as WaitingForNodes' }),
  message: Type.Optional(Type.String()),
  at: Type.String({ format: 'date-time' }),
});

export const JobStateSchema = Type.Union([
  Type.Literal('waiting'),
  Type.Literal('delayed'),
  Type.Literal('active'),
  Type.Literal('completed'),
  Type.Literal('failed'),
  Type.Literal('waiting-children'),
  Type.Literal('prioritized'),
  Type.Literal('unknown'),
]);

export const JobSchema = Type.Object(
  {
    id: Type.String({ description: 'Starts with the hub the job runs for: `<hub>.<id>`' }),
    type: Type.String({ examples: ['cluster.hibernate'] }),
    state: JobStateSchema,
    target: Type.Optional(JobTargetSchema),
    steps: Type.Array(JobStepSchema),
    progress: Type.Optional(
      Type.Object(
        {
          done: Type.Integer({ minimum: 0, description: 'Items finished, whatever their outcome' }),
          total: Type.Integer({ minimum: 0 }),
          counts: Type.Optional(
            Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
              description: 'Finished items by outcome, e.g. acted, skipped, failed for a schedule sweep',
            }),
          ),
        },
        { description: 'How far a job working through many items is (a schedule sweep: at least every second)' },
      ),
    ),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Object({ message: Type.String(), reason: Type.Optional(Type.String()) })),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts made so far' }),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Optional(Type.String({ format: 'date-time' })),
    finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
    source: Type.Optional(
      Type.Literal('kubernetes', {
        description:
          'Set when Redis has no record of the job (lost in a flush or restart, or not queued yet): ' +
          "the view comes from the job's Operation and the target as Kubernetes shows it, without the " +
          "job's own steps",
      }),
    ),
  },
  { title: 'Job' },
);

/** `{ job }`: what mutation endpoints and GET /v1/jobs/{id} return. */
export const JobEnvelopeSchema = Type.Object({ job: JobSchema }, { title: 'JobEnvelope' });

/** The fields a QuotaExceeded problem adds (docs/quotas.md). */
const QuotaProblemFields = {
  team: Type.Optional(Type.String({ description: 'QuotaExceeded: the team whose quota refuses the request' })),
  quota: Type.Optional(
    Type.Union(
      [
        Type.Literal('claims'),
        Type.Literal('clusters'),
        Type.Literal('runningClusters'),
        Type.Literal('maxLifetimeHours'),
      ],
      { description: 'QuotaExceeded: which quota' },
    ),
  ),
  limit: Type.Optional(
    Type.Number({
      description: "QuotaExceeded: the quota's limit; TooManyRequests: requests a minute allowed to this caller",
    }),
  ),
  current: Type.Optional(
    Type.Number({
      description: 'QuotaExceeded: what the team holds now (for maxLifetimeHours: the lifetime asked for, in hours)',
    }),
  ),
  requested: Type.Optional(Type.Number({ description: 'QuotaExceeded: what the request would add' })),
};

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always about:blank; `code` names the problem' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    code: Type.String({
      examples: [
        'NotFound',
        'Conflict',
        'Invalid',
        'Forbidden',
        'QuotaExceeded',
        'Unavailable',
        'BadRequest',
        'Unauthorized',
        'TooManyRequests',
        'InternalError',
      ],
    }),
    errors: Type.Optional(Type.Array(FieldIssueSchema)),
    correlationId: Type.Optional(
      Type.String({ description: 'Quote it when reporting a problem; the log has the details' }),
    ),
    ...QuotaProblemFields,
    retryAfterSeconds: Type.Optional(Type.Integer({ description: 'TooManyRequests: as the Retry-After header' })),
  },
  { title: 'Problem', description: 'RFC 9457 problem details (application/problem+json)' },
);

/** One change of a cluster's expiry or a claim's lifetime, as the history annotations record it (hive/expiry/history.ts). */
export const ExpiryHistoryEntrySchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    action: Type.Enum(EXPIRY_ACTIONS, {
      description: "How the change moved the expiry; default and cap are a policy's",
    }),
    by: Type.String({
      description: "Who: the person the request named, else the API token's holder; policy/<name> for a policy",
    }),
    reason: Type.Optional(Type.String({ description: 'Why, in the words of the person or the policy' })),
    via: Type.String({
      description: 'Through what: the route (PUT /v1/clusters/{id}/expiry…) or what applied a policy',
      examples: ['PATCH /v1/claims/:hub/:namespace/:name'],
    }),
    principal: Type.Optional(Type.String({ description: "The API token's holder, when it is not by" })),
    from: Type.Optional(
      Type.String({ description: "Before: a cluster's expiry time (RFC 3339), a claim's lifetime (Go duration)" }),
    ),
    to: Type.Optional(Type.String({ description: 'After, in the same form' })),
  },
  { additionalProperties: false, title: 'ExpiryHistoryEntry' },
);

// The schema and the domain type must be the same shape: each is assignable to the other.
const sameShape = <A, B>(check: [A] extends [B] ? ([B] extends [A] ? true : never) : never) => check;
sameShape<Static<typeof ExpiryHistoryEntrySchema>, ExpiryHistoryEntry>(true);

export const WaitQuery = Type.Object({
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3600,
      description: 'Seconds to wait for the job to end before answering (202 if it is still running)',
    }),
  ),
});

export type WaitQueryType = Static<typeof WaitQuery>;

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Bad request: a path or query parameter `errors` names, or a body that is not JSON (or nests too deep)',
  401: 'Missing or invalid bearer token',
  403: 'Forbidden: the caller lacks the role this needs (`detail` names it), or the hub refused',
  404: 'Not found',
  409: 'Conflict with the current state; `detail` says why',
  422: 'Refused: `errors` names each body field (wrong JSON type, unknown, bad value) and the reason',
  429: 'Too many requests from this caller (`limit` a minute); retry after `Retry-After` seconds',
  500: 'Unexpected error; quote `correlationId`',
  503: 'A hub or Redis is unavailable; retry after `Retry-After` seconds',
};

/** The error answers a route may give (plus 401, 403, 429, 500, 503, which any route may), as problem+json. */
export const problemResponses = (...codes: number[]) =>
  Object.fromEntries(
    [...new Set([...codes, 401, 403, 429, 500, 503])].map((c) => [
      c,
      { description: PROBLEM_TEXT[c] ?? 'Problem', content: { 'application/problem+json': { schema: ProblemSchema } } },
    ]),
  );
