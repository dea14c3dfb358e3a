// The expiry use case: cluster expiry (read, set, extend under policy caps, audited), expiry policies, the
// warnings list, and the job handlers (warnings, policy enforcement).
import type { ExtensionRequest } from '../../hive/expiry/index.js';
import { Type as T } from 'typebox';
import { BACKGROUND_PRIORITY, defineJob, handleJob, refFields, type JobRegistration } from '../job-definition.js';
import type { ObjectRef } from '../ports.js';
import { createClusterExpiry, type Actor } from './cluster-expiry.js';
import type { ExpiryServiceDeps } from './deps.js';
import type { AuditOrigin } from './expiry-record.js';
import { createPolicyStore } from './policy-store.js';
import { createExpirySweep } from './policy-sweep.js';
import { warnJob } from './warn.js';
import { listWarnings } from './warnings-list.js';

export const ENFORCE_POLICY_JOB = defineJob({
  type: 'expiry.enforce-policy',
  payload: T.Object({ ...refFields(), dryRun: T.Optional(T.Boolean()) }),
  class: 'background',
  priority: BACKGROUND_PRIORITY.policies,
});

export type ExpiryService = ReturnType<typeof createExpiryService>;

export function createExpiryService(deps: ExpiryServiceDeps) {
  const clusters = createClusterExpiry(deps);
  const policies = createPolicyStore(deps);
  const sweep = createExpirySweep(deps, clusters);
  return {
    get: (ref: ObjectRef) => clusters.get(ref),
    extend: (ref: ObjectRef, req: ExtensionRequest & Actor, origin: AuditOrigin) => clusters.extend(ref, req, origin),
    enforcePolicy: (ref: ObjectRef, opts?: { dryRun?: boolean; origin?: AuditOrigin }) =>
      clusters.enforcePolicy(ref, opts),
    policies,
    /** Impose policy defaults and caps on every cluster now; with dryRun, only report what would change. */
    sweep,
    warnings: () => listWarnings(deps),
    jobs: (): JobRegistration[] => [
      warnJob(deps),
      handleJob(ENFORCE_POLICY_JOB, (p) =>
        clusters.enforcePolicy({ hub: p.hub, namespace: p.namespace, name: p.name }, { dryRun: p.dryRun }),
      ),
    ],
  };
}
