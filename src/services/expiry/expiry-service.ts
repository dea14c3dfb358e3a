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
import type { Caller } from '../../auth/caller.js';
import { Forbidden } from '../../hive/errors.js';
import { requireOnCluster } from '../team-scope.js';

export const ENFORCE_POLICY_JOB = defineJob({
  type: 'expiry.enforce-policy',
  payload: T.Object({ ...refFields(), dryRun: T.Optional(T.Boolean()) }),
  class: 'background',
  priority: BACKGROUND_PRIORITY.policies,
});

export type ExpiryService = ReturnType<typeof createExpiryService>;

const nsRef = (ref: ObjectRef) => ({ hub: ref.hub, namespace: ref.namespace ?? '', name: ref.name });

export function createExpiryService(deps: ExpiryServiceDeps) {
  const clusters = createClusterExpiry(deps);
  const policies = createPolicyStore(deps);
  const sweep = createExpirySweep(deps, clusters);
  return {
    /** Viewer in the cluster's team (another team's cluster answers as a missing one). */
    get: (ref: ObjectRef, caller: Caller) => {
      requireOnCluster(deps, nsRef(ref), caller, 'viewer', 'reading the expiry of this cluster');
      return clusters.get(ref);
    },
    /** Operator in the cluster's team; still capped by the policies in force. */
    extend: (ref: ObjectRef, req: ExtensionRequest & Actor, origin: AuditOrigin, caller: Caller) => {
      requireOnCluster(deps, nsRef(ref), caller, 'operator', 'extending the expiry of this cluster');
      return clusters.extend(ref, req, origin);
    },
    enforcePolicy: (ref: ObjectRef, opts?: { dryRun?: boolean; origin?: AuditOrigin }) =>
      clusters.enforcePolicy(ref, opts),
    policies,
    /** Impose policy defaults and caps on every cluster now; with dryRun, only report what would change. */
    sweep: (opts: Parameters<typeof sweep>[0], origin: AuditOrigin | undefined, caller: Caller) => {
      // It spans every team's clusters.
      if (!caller.platformAdmin) throw new Forbidden('an expiry sweep of all clusters needs a platform admin');
      return sweep(opts, origin);
    },
    /** Only what concerns clusters and claims the caller sees. */
    warnings: (caller: Caller) => listWarnings(deps, caller),
    jobs: (): JobRegistration[] => [
      warnJob(deps),
      handleJob(ENFORCE_POLICY_JOB, (p) =>
        clusters.enforcePolicy({ hub: p.hub, namespace: p.namespace, name: p.name }, { dryRun: p.dryRun }),
      ),
    ],
  };
}
