// The expiry use case: cluster expiry (read, set, extend under policy caps, audited), expiry policies, the
// warnings list, and the job handlers (warnings, policy enforcement).
import type { ExtensionRequest } from '../../hive/expiry/index.js';
import type { JobHandler, ObjectRef } from '../ports.js';
import { createClusterExpiry, type Actor } from './cluster-expiry.js';
import type { ExpiryServiceDeps } from './deps.js';
import type { AuditOrigin } from './expiry-record.js';
import { createPolicyStore } from './policy-store.js';
import { createExpirySweep } from './policy-sweep.js';
import { WARN_JOB, warnHandler } from './warn.js';
import { listWarnings } from './warnings-list.js';

export const ENFORCE_POLICY_JOB = 'expiry.enforce-policy';

export type ExpiryService = ReturnType<typeof createExpiryService>;

export function createExpiryService(deps: ExpiryServiceDeps) {
  const clusters = createClusterExpiry(deps);
  const policies = createPolicyStore(deps);
  const sweep = createExpirySweep(deps, clusters);
  return {
    get: (ref: ObjectRef) => clusters.get(ref),
    extend: (ref: ObjectRef, req: ExtensionRequest & Actor, origin: AuditOrigin) => clusters.extend(ref, req, origin),
    enforcePolicy: (ref: ObjectRef, opts?: { dryRun?: boolean; origin?: AuditOrigin }) => clusters.enforcePolicy(ref, opts),
    policies,
    /** Impose policy defaults and caps on every cluster now; with dryRun, only report what would change. */
    sweep,
    warnings: () => listWarnings(deps),
    handlers(): Record<string, JobHandler> {
      return {
        [WARN_JOB]: warnHandler(deps),
        [ENFORCE_POLICY_JOB]: async (raw) => {
          const p = raw as { hub: string; namespace: string; name: string; dryRun?: boolean };
          return clusters.enforcePolicy({ hub: p.hub, namespace: p.namespace, name: p.name }, { dryRun: p.dryRun });
        },
      };
    },
  };
}
