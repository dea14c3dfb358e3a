// ClusterOverride: declared once. The CRD (deploy/crds/), the override store's types and the API's request body
// come from these schemas.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';
import { crdOnly } from './shared.js';

export const OverrideTypeSchema = Type.Union([Type.Literal('keepAwake'), Type.Literal('skipNextHibernation')]);

const props = {
  type: OverrideTypeSchema,
  until: Type.Optional(
    Type.String({
      ...crdOnly({ format: 'date-time' }),
      description: 'ISO 8601 time. Required for keepAwake; optional for skipNextHibernation.',
    }),
  ),
  by: Type.String({ minLength: 1 }),
  reason: Type.String({ minLength: 1 }),
};

export const ClusterOverrideSpecSchema = Type.Object({
  cluster: Type.Object({ hub: Type.String(), namespace: Type.String(), name: Type.String() }),
  type: props.type,
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the override was made (defaults to the creation time).' }),
  ),
  until: props.until,
  by: props.by,
  reason: props.reason,
});

/** What a person asks for through the API: the cluster comes from the path, `from` is Beekeeper's now. */
export const OverrideRequestSchema = Type.Object({
  type: props.type,
  until: props.until,
  for: Type.Optional(Type.String({ description: 'Or a duration from now (Go syntax)', examples: ['4h'] })),
  by: props.by,
  reason: props.reason,
});

export const ClusterOverrideStatusSchema = Type.Object({
  phase: Type.Optional(Type.Union([Type.Literal('Active'), Type.Literal('Expired'), Type.Literal('Consumed')])),
  consumedEdge: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String()),
});

/** The API's view of an override (/v1/clusters/{hub}/{namespace}/{name}/overrides, the cluster's schedule). */
export const OverrideViewSchema = Type.Object(
  {
    name: Type.String(),
    type: props.type,
    from: ClusterOverrideSpecSchema.properties.from,
    until: props.until,
    by: props.by,
    reason: props.reason,
    phase: Type.Union([Type.Literal('Active'), Type.Literal('Expired'), Type.Literal('Consumed')]),
  },
  { title: 'ClusterOverride' },
);

export type ClusterOverrideSpec = Static<typeof ClusterOverrideSpecSchema>;
export type OverrideView = Static<typeof OverrideViewSchema>;
export type ClusterOverrideStatus = Static<typeof ClusterOverrideStatusSchema>;
export type OverrideRequest = Static<typeof OverrideRequestSchema>;

export const clusterOverrideCrd: CrdDefinition = {
  kind: 'ClusterOverride',
  plural: 'clusteroverrides',
  shortNames: ['cov'],
  comment:
    'ClusterOverride: a person\'s exception for one cluster ("keep awake until", "skip the next hibernation"), with\n' +
    'who and why. It lapses by itself; status.phase says whether it still holds.',
  printerColumns: [
    { name: 'Hub', type: 'string', jsonPath: '.spec.cluster.hub' },
    { name: 'Namespace', type: 'string', jsonPath: '.spec.cluster.namespace' },
    { name: 'Cluster', type: 'string', jsonPath: '.spec.cluster.name' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    { name: 'Until', type: 'string', jsonPath: '.spec.until' },
    { name: 'By', type: 'string', jsonPath: '.spec.by' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: ClusterOverrideSpecSchema,
  status: ClusterOverrideStatusSchema,
};
