// The API's views of a Relocation and of a preflight report, declared once beside the resource
// (relocation.ts): the services' types are their Static, the routes show them through responseShape.
import { Type, type Static } from 'typebox';
import {
  RelocationCheckSchema,
  RelocationClusterSchema,
  RelocationPhaseSchema,
  RelocationSpecSchema,
} from './relocation.js';

const spec = RelocationSpecSchema.properties;
const count = Type.Integer({ minimum: 0 });

export const ClusterPreflightSchema = Type.Object(
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

export const RelocationViewSchema = Type.Object(
  {
    id: Type.String({ description: "The relocation id (the Relocation's name)" }),
    from: Type.String(),
    to: Type.String(),
    team: Type.Optional(
      Type.String({ description: 'The owning team (label beekeeper.io/team): moves its clusters only; absent: any' }),
    ),
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

export type RelocationView = Static<typeof RelocationViewSchema>;
export type PreflightReportView = Static<typeof PreflightReportSchema>;
