// Operation: declared once. The CRD (deploy/crds/) and the Operation store's types come from these schemas.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';

const Preserved = (description?: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    'x-kubernetes-preserve-unknown-fields': true,
    ...(description ? { description } : {}),
  });

export const OperationSpecSchema = Type.Object({
  type: Type.String({ description: 'The job type, e.g. cluster.hibernate.' }),
  target: Type.Object({
    kind: Type.String(),
    hub: Type.String(),
    namespace: Type.Optional(Type.String()),
    name: Type.String(),
    uid: Type.Optional(
      Type.String({ description: 'The object meant, once known; a re-created namesake is left alone.' }),
    ),
  }),
  payload: Preserved("The job's payload (never a secret), from which the job is enqueued again."),
  requestedBy: Type.Optional(Type.String()),
  requestedAt: Type.String({ format: 'date-time' }),
  idempotency: Type.Optional(
    Type.Object(
      {
        keyHash: Type.String({ description: 'SHA-256 of the caller and the key, never the key itself' }),
        fingerprint: Type.String({ description: 'SHA-256 of the route and the body' }),
        status: Type.Optional(Type.Integer()),
        location: Type.Optional(Type.String()),
      },
      {
        description:
          'Set when the request carried an Idempotency-Key, so a retry after a Redis loss gets the first answer.',
      },
    ),
  ),
});

export const OperationPhaseSchema = Type.Union([
  Type.Literal('Pending'),
  Type.Literal('Running'),
  Type.Literal('Succeeded'),
  Type.Literal('Failed'),
]);

export const OperationStatusSchema = Type.Object({
  phase: Type.Optional(OperationPhaseSchema),
  startedAt: Type.Optional(Type.String({ format: 'date-time' })),
  finishedAt: Type.Optional(Type.String({ format: 'date-time' })),
  result: Type.Optional(Preserved()),
  error: Type.Optional(Type.Object({ message: Type.Optional(Type.String()), reason: Type.Optional(Type.String()) })),
});

export type OperationSpec = Static<typeof OperationSpecSchema>;
export type OperationStatus = Static<typeof OperationStatusSchema>;

export const operationCrd: CrdDefinition = {
  kind: 'Operation',
  plural: 'operations',
  shortNames: ['bkop'],
  comment: [
    'Operation: one per request the API accepted with 202 (create, hibernate, resume, delete a cluster, release a',
    "claim, delete a pool, run a schedule). Its name is the job's id. It holds what was asked (spec) and what became",
    'of it (status), so the request survives Redis losing its job: the resync enqueues the job again under the same',
    'id, and GET /v1/jobs/{id} answers from here when Redis has no such job. Finished ones are deleted after the',
    'job history window (jobs.keepCompletedSeconds / keepFailedSeconds). Nothing secret is ever written here.',
  ].join('\n'),
  printerColumns: [
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    { name: 'Hub', type: 'string', jsonPath: '.spec.target.hub' },
    { name: 'Target-Namespace', type: 'string', jsonPath: '.spec.target.namespace' },
    { name: 'Target', type: 'string', jsonPath: '.spec.target.name' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'By', type: 'string', jsonPath: '.spec.requestedBy' },
    { name: 'Finished', type: 'date', jsonPath: '.status.finishedAt', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: OperationSpecSchema,
  status: OperationStatusSchema,
};
