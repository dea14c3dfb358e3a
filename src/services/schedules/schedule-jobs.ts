// The schedule job types: their payloads and retries. The timers and the resync enqueue them; sweep.ts and
// reconcile-cluster.ts run them.
import { Type as T } from 'typebox';
import { BACKGROUND_PRIORITY, defineJob, refFields } from '../job-definition.js';

const Action = T.Union([T.Literal('hibernate'), T.Literal('resume')]);
const SweepPayloadSchema = T.Object({
  schedule: T.String({ minLength: 1 }),
  edgeAt: T.String(),
  action: Action,
  reason: T.String(),
  mode: T.Union([T.Literal('edge'), T.Literal('catch-up'), T.Literal('manual')]),
  dryRun: T.Optional(T.Boolean()),
});
// A sweep keeps its plan in the job and marks each cluster in the PATCH that acts on it (sweep-cluster.ts), so a
// retry converges.
export const SWEEP_JOB = defineJob({
  type: 'schedule.sweep',
  payload: SweepPayloadSchema,
  attempts: 3,
  backoffMs: 5000,
  class: 'background',
  priority: BACKGROUND_PRIORITY.sweeps,
});
/** A sweep someone asked for (POST /v1/schedules/{name}/run): the same handler, as interactive work. */
export const RUN_JOB = defineJob({
  type: 'schedule.run',
  payload: SweepPayloadSchema,
  attempts: 3,
  backoffMs: 5000,
  class: 'interactive',
});
export const APPLY_JOB = defineJob({
  type: 'schedule.apply',
  payload: T.Object({
    ...refFields(),
    schedule: T.String(),
    edgeAt: T.Optional(T.String()),
    action: Action,
    reason: T.String(),
  }),
  attempts: 8,
  backoffMs: 2000,
  class: 'background',
  priority: BACKGROUND_PRIORITY.sweeps,
});

export const RECONCILE_CLUSTER_JOB = defineJob({
  type: 'schedule.reconcile-cluster',
  payload: T.Object({
    ...refFields(),
    cause: T.String(),
    edgeAt: T.Optional(T.String()),
    override: T.Optional(T.String()),
  }),
  class: 'background',
  priority: BACKGROUND_PRIORITY.edges,
});
