// The cluster job types, for the worker's dispatch table. Payloads are what cluster-service.ts enqueued.
import type { JobHandler } from '../ports.js';
import type { CreatePlan } from './build-objects.js';
import { runCreate } from './create-job.js';
import type { ClusterJobDeps } from './deps.js';
import { runDelete, type DeletePayload } from './delete-job.js';
import { runPower, type PowerPayload } from './power-job.js';

export function clusterJobHandlers(d: ClusterJobDeps): Record<string, JobHandler> {
  return {
    'cluster.create': (payload, ctx) => runCreate(d, payload as unknown as CreatePlan, ctx),
    'cluster.hibernate': (payload, ctx) => runPower(d, { ...(payload as unknown as PowerPayload), target: 'Hibernating' }, ctx),
    'cluster.resume': (payload, ctx) => runPower(d, { ...(payload as unknown as PowerPayload), target: 'Running' }, ctx),
    'cluster.delete': (payload, ctx) => runDelete(d, payload as unknown as DeletePayload, ctx),
  };
}
