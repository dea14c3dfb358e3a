// The relocation API's bodies, derived from the Relocation resource's schemas (hive/resources/relocation.ts).
import { Type } from 'typebox';
import {
  RelocationCheckSchema,
  RelocationClusterSchema,
  RelocationPhaseSchema,
  RelocationSelectorSchema,
  RelocationSpecSchema,
} from '../../hive/resources/relocation.js';
import { By } from '../audit.js';
import { requestShape } from '../request-shape.js';
import { JobSchema, ProblemSchema } from '../schemas.js';

const spec = RelocationSpecSchema.properties;
const Id = Type.String({ minLength: 1, maxLength: 63, description: "The relocation id (the Relocation's name)" });

export const RelocationParams = Type.Object({ id: Id });

export const RelocationRequestSchema = requestShape(
  Type.Object(
    {
      from: spec.from,
      to: spec.to,
      clusters: Type.Optional(
        Type.Array(spec.clusters.items, { minItems: 1, maxItems: 5000, description: 'The clusters to move' }),
      ),
      selector: Type.Optional(
        Type.Object(RelocationSelectorSchema.properties, {
          description: 'Every given part must match; {} is every cluster of the source hub. pool: its claimed clusters',
        }),
      ),
      waves: spec.waves,
      skipFailed: Type.Optional(
        Type.Boolean({
          description: 'Move the clusters that pass preflight and record the others preflight-failed (default false)',
        }),
      ),
      dryRun: Type.Optional(
        Type.Boolean({ description: 'Only preflight: answer 200 with the report, create nothing' }),
      ),
      by: Type.Optional(By),
    },
    { description: 'Give exactly one of clusters and selector' },
  ),
);

const ClusterPreflightSchema = Type.Object(
  {
    namespace: Type.String(),
    name: Type.String(),
    ok: Type.Boolean({ description: 'No error check: the cluster may move' }),
    checks: Type.Array(Type.Object(RelocationCheckSchema.properties, { title: 'RelocationCheck' })),
  },
  { title: 'ClusterPreflight' },
);

export const PreflightReportSchema = Type.Object(
  {
    clusters: Type.Array(ClusterPreflightSchema),
    imageSetsToCopy: Type.Array(Type.String(), {
      description: 'ClusterImageSets the destination lacks; the relocation copies them',
    }),
    warnings: Type.Array(Type.String(), { description: 'About the relocation as a whole' }),
  },
  { title: 'PreflightReport' },
);

const Cluster = Type.Object(RelocationClusterSchema.properties, { title: 'RelocationClusterState' });
const count = Type.Integer({ minimum: 0 });

export const RelocationViewSchema = Type.Object(
  {
    id: Id,
    from: Type.String(),
    to: Type.String(),
    phase: RelocationPhaseSchema,
    terminal: Type.Boolean({ description: 'Succeeded, Failed or Aborted: nothing moves any more' }),
    requestedBy: Type.Optional(Type.String()),
    requestedAt: Type.String({ format: 'date-time' }),
    request: Type.Object({ clusters: spec.clusters, selector: spec.selector }),
    skipFailed: Type.Boolean(),
    waves: Type.Object({
      size: Type.Optional(Type.Integer()),
      pauseSeconds: Type.Optional(Type.Integer()),
      total: count,
      done: count,
      current: Type.Optional(Type.Integer()),
    }),
    progress: Type.Object(
      {
        total: count,
        pending: count,
        'preflight-failed': count,
        moving: count,
        verifying: count,
        moved: count,
        failed: count,
        aborted: count,
      },
      { description: 'Clusters per state' },
    ),
    eta: Type.Optional(Type.String({ format: 'date-time', description: 'Estimated end, from the waves done so far' })),
    startedAt: Type.Optional(Type.String({ format: 'date-time' })),
    finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
    message: Type.Optional(Type.String()),
    warnings: Type.Array(Type.String()),
    imageSetsCopied: Type.Array(Type.String()),
    abort: spec.abort,
    clusters: Type.Array(Cluster, {
      description: "Per cluster: wave, state, the hub it is on now, and why (Hive's reason or preflight's)",
    }),
    job: Type.Optional(Type.String({ description: 'The relocation.run job (GET /v1/jobs/{id})' })),
    links: Type.Object({
      self: Type.String(),
      events: Type.String(),
      abort: Type.String(),
      job: Type.Optional(Type.String()),
    }),
  },
  { title: 'Relocation' },
);

export const RelocationAcceptedSchema = Type.Object(
  {
    relocation: RelocationViewSchema,
    job: JobSchema,
    // Absent when an Idempotency-Key replays the answer from Kubernetes (the report is not kept).
    report: Type.Optional(PreflightReportSchema),
  },
  { title: 'RelocationAccepted' },
);

export const DryRunSchema = Type.Object(
  { dryRun: Type.Literal(true), report: PreflightReportSchema },
  { title: 'RelocationDryRun' },
);

/** 422 of POST /v1/relocations: a problem, with the preflight report when preflight refused it. */
export const RelocationProblemSchema = Type.Object(
  {
    ...ProblemSchema.properties,
    report: Type.Optional(PreflightReportSchema),
  },
  { title: 'RelocationProblem', description: 'RFC 9457 problem details; `report` when preflight refused the request' },
);

export const RelocationListQuery = Type.Object({ phase: Type.Optional(RelocationPhaseSchema) });

export const AbortQuery = Type.Object({
  wait: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 30,
    description: 'Seconds to wait for the relocation to end (Aborted) before answering (202 if it has not)',
  }),
});

export const AbortBody = Type.Object({ by: Type.Optional(By) }, { additionalProperties: false });
