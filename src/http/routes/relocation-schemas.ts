// The relocation API's bodies, derived from the Relocation resource's schemas (hive/resources/relocation.ts).
import { TeamField } from './team-scoped.js';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import {
  RelocationPhaseSchema,
  RelocationSelectorSchema,
  RelocationSpecSchema,
} from '../../hive/resources/relocation.js';
import {
  PreflightReportSchema as PreflightReportView,
  RelocationViewSchema as View,
} from '../../hive/resources/relocation-view.js';
import type { PreflightReport } from '../../services/relocations/preflight-report.js';
import { By } from '../audit.js';
import { requestShape, responseShape } from '../request-shape.js';
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
      team: Type.Optional(TeamField),
    },
    { description: 'Give exactly one of clusters and selector' },
  ),
);

export const PreflightReportSchema = responseShape(PreflightReportView);
export const RelocationViewSchema = responseShape(View);

// The report the services build (preflight-report.ts, the shared contract) is the shape the API shows.
const sameShape = <A, B>(check: [A] extends [B] ? ([B] extends [A] ? true : never) : never) => check;
sameShape<Static<typeof PreflightReportView>, PreflightReport>(true);

export const RelocationAcceptedSchema = Type.Object(
  {
    relocation: RelocationViewSchema,
    // Absent only in a replay whose job is gone from Redis and Kubernetes alike.
    job: Type.Optional(JobSchema),
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
