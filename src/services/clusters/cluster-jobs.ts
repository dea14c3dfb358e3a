// The cluster job types: their payloads and retries. cluster-service.ts enqueues them; job-handlers.ts runs them.
import { Type as T } from 'typebox';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ExpiryActor } from '../expiry/expiry-record.js';
import { defineJob, refFields } from '../job-definition.js';

const PowerTarget = T.Union([T.Literal('Hibernating'), T.Literal('Running')]);
const PowerPayload = T.Object({
  ...refFields(),
  target: PowerTarget,
  before: T.Optional(T.Object({ requested: PowerTarget, observed: T.Optional(T.String()) })),
});

// Power changes and deletes converge (they patch a desired state and wait), so retrying is always safe.
export const HIBERNATE_JOB = defineJob({
  type: 'cluster.hibernate',
  payload: PowerPayload,
  attempts: 8,
  backoffMs: 2000,
  class: 'interactive',
});
export const RESUME_JOB = defineJob({
  type: 'cluster.resume',
  payload: PowerPayload,
  attempts: 8,
  backoffMs: 2000,
  class: 'interactive',
});
export const DELETE_JOB = defineJob({
  type: 'cluster.delete',
  payload: T.Object({
    ...refFields(),
    uid: T.Optional(T.String()),
    liftProtection: T.Optional(T.Boolean()),
    byRequest: T.Optional(T.Object({ protectionLifted: T.Boolean() })),
  }),
  attempts: 8,
  backoffMs: 2000,
  class: 'interactive',
});
export const CREATE_JOB = defineJob({
  type: 'cluster.create',
  payload: T.Object({
    ...refFields(),
    createNamespace: T.Boolean(),
    installConfigYaml: T.String(),
    // Built and checked by the request (build-objects.ts); here only its shape as an object.
    clusterDeployment: T.Unsafe<ClusterDeployment>(T.Object({ metadata: T.Object({}) })),
    ownedSecrets: T.Array(T.String()),
    expiresAt: T.Optional(T.String()),
    expiryActor: T.Optional(T.Unsafe<ExpiryActor>(T.Object({ by: T.String(), via: T.String() }))),
    uid: T.Optional(T.String()),
  }),
  attempts: 5,
  backoffMs: 3000,
  class: 'interactive',
});

export const POWER_JOBS = [HIBERNATE_JOB, RESUME_JOB];
