// Relocation: declared once. One per POST /v1/relocations (not for dryRun). It is the durable record of a migration
// of ClusterDeployments from one hub to another through Hive's ClusterRelocate (REFERENCE.md §6): what was asked
// (spec) and, cluster by cluster, what became of it (status), so a relocation resumes after a crash or a Redis loss
// from here. The CRD (deploy/crds/), the API's request and response bodies and the store's types come from it.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';
import { LabelSelectorSchema } from './shared.js';

const ClusterName = Type.Object({ namespace: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }) });

/** Which clusters move: an explicit list, or a selector (every given part must match). */
export const RelocationSelectorSchema = Type.Object({
  labels: Type.Optional(LabelSelectorSchema),
  namespaces: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  pool: Type.Optional(
    Type.Object(
      { namespace: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }) },
      { description: "A ClusterPool's claimed clusters (unclaimed pool clusters never move: pools are per hub)." },
    ),
  ),
  team: Type.Optional(Type.String({ minLength: 1, description: 'Clusters labelled beekeeper.io/team=<team>.' })),
});

export const RelocationWavesSchema = Type.Object({
  size: Type.Optional(Type.Integer({ minimum: 1, description: 'Clusters moved at a time (default: all at once).' })),
  pauseSeconds: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Wait between one wave ending and the next starting (default 0).' }),
  ),
});

export const RelocationSpecSchema = Type.Object({
  from: Type.String({ minLength: 1, description: 'Source hub (a configured hub name).' }),
  to: Type.String({ minLength: 1, description: 'Destination hub (a configured hub name, not the source).' }),
  clusters: Type.Optional(Type.Array(ClusterName, { minItems: 1 })),
  selector: Type.Optional(RelocationSelectorSchema),
  waves: Type.Optional(RelocationWavesSchema),
  /** Clusters failing preflight are recorded `preflight-failed` and the others move; otherwise nothing moves. */
  skipFailed: Type.Optional(Type.Boolean()),
  requestedBy: Type.Optional(Type.String()),
  requestedAt: Type.String({ format: 'date-time' }),
  /** Set by POST /v1/relocations/{id}/abort: no further wave starts and in-flight moves are aborted. */
  abort: Type.Optional(
    Type.Object({ requestedAt: Type.String({ format: 'date-time' }), by: Type.Optional(Type.String()) }),
  ),
});

/** One preflight finding about one cluster. `error` blocks the move; `warning` is reported and the move goes on. */
export const RelocationCheckSchema = Type.Object({
  check: Type.String({ description: 'e.g. destination-reachable, image-set, name-conflict, power-transition' }),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
  message: Type.String(),
  fix: Type.Optional(Type.String({ description: 'What to do about it.' })),
});

export const RelocationClusterStateSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('preflight-failed'),
  Type.Literal('moving'),
  Type.Literal('verifying'),
  Type.Literal('moved'),
  Type.Literal('failed'),
  Type.Literal('aborted'),
]);

export const RelocationClusterSchema = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  /** 1-based wave number. */
  wave: Type.Integer({ minimum: 1 }),
  state: RelocationClusterStateSchema,
  /** Where the cluster's ClusterDeployment is now (exactly one hub). */
  hub: Type.String(),
  reason: Type.Optional(Type.String({ description: "Hive's RelocationFailed reason, or Beekeeper's." })),
  message: Type.Optional(Type.String()),
  checks: Type.Optional(Type.Array(RelocationCheckSchema)),
  startedAt: Type.Optional(Type.String({ format: 'date-time' })),
  finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

export const RelocationPhaseSchema = Type.Union([
  Type.Literal('Pending'),
  Type.Literal('Running'),
  Type.Literal('Aborting'),
  Type.Literal('Succeeded'),
  Type.Literal('Failed'),
  Type.Literal('Aborted'),
]);

export const RelocationStatusSchema = Type.Object({
  phase: Type.Optional(RelocationPhaseSchema),
  clusters: Type.Optional(Type.Array(RelocationClusterSchema)),
  waves: Type.Optional(
    Type.Object({
      total: Type.Integer({ minimum: 0 }),
      done: Type.Integer({ minimum: 0 }),
      current: Type.Optional(Type.Integer()),
    }),
  ),
  /** ClusterImageSets the clusters reference that the destination lacked and Beekeeper copied. */
  imageSetsCopied: Type.Optional(Type.Array(Type.String())),
  warnings: Type.Optional(Type.Array(Type.String())),
  /** Names of what Beekeeper created on the source hub (in spec.from's state namespace), removed at the end. */
  clusterRelocate: Type.Optional(Type.Object({ namespace: Type.String(), name: Type.String() })),
  kubeconfigSecret: Type.Optional(Type.Object({ namespace: Type.String(), name: Type.String() })),
  startedAt: Type.Optional(Type.String({ format: 'date-time' })),
  finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
  /** Estimated end, from the waves done so far. */
  eta: Type.Optional(Type.String({ format: 'date-time' })),
  message: Type.Optional(Type.String()),
});

export type RelocationSpec = Static<typeof RelocationSpecSchema>;
export type RelocationStatus = Static<typeof RelocationStatusSchema>;
export type RelocationCluster = Static<typeof RelocationClusterSchema>;
export type RelocationClusterState = Static<typeof RelocationClusterStateSchema>;
export type RelocationCheck = Static<typeof RelocationCheckSchema>;
export type RelocationPhase = Static<typeof RelocationPhaseSchema>;

export const relocationCrd: CrdDefinition = {
  kind: 'Relocation',
  plural: 'relocations',
  shortNames: ['bkreloc'],
  comment: [
    'Relocation: one per POST /v1/relocations. It moves ClusterDeployments from hub spec.from to hub spec.to through',
    "Hive's ClusterRelocate, in waves, and records per cluster where it is and what became of it. The relocation job",
    'resumes from status after a crash or a Redis loss. Its name is the relocation id.',
  ].join('\n'),
  printerColumns: [
    { name: 'From', type: 'string', jsonPath: '.spec.from' },
    { name: 'To', type: 'string', jsonPath: '.spec.to' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    {
      name: 'Team',
      type: 'string',
      jsonPath: '.metadata.labels.beekeeper\\.io/team',
      description: 'Owning team; none: platform-wide',
    },
    { name: 'Waves-Done', type: 'integer', jsonPath: '.status.waves.done' },
    { name: 'Waves', type: 'integer', jsonPath: '.status.waves.total' },
    { name: 'By', type: 'string', jsonPath: '.spec.requestedBy', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: RelocationSpecSchema,
  status: RelocationStatusSchema,
};
