// An expiry sweep: impose every policy's default and cap on every cluster now, or with `dryRun` only say what
// that would change. The expiry timers already enforce policies whenever a cluster or policy changes; the sweep
// is for people who want to know (or force) the outcome before relying on it. With `includeDryRunPolicies` a
// dry run also counts policies marked `dryRun: true`, which is how one previews a policy before switching it on.
import { effectiveLimits, policyExpiry } from '../../hive/expiry/index.js';
import { invalid } from '../../hive/errors.js';
import { isUnclaimedPoolCluster } from '../../hive/schedule/index.js';
import { relocatingMessage } from '../../hive/relocation-marks.js';
import type { createClusterExpiry } from './cluster-expiry.js';
import type { ExpiryServiceDeps } from './deps.js';
import type { AuditOrigin } from './expiry-record.js';
import { enforcedPolicies, listPolicies } from './policy-store.js';
import { clusterExpiry } from './targets.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { clusterTeamOf } from '../team-scope.js';

export interface ExpirySweepChange {
  hub: string;
  namespace: string;
  name: string;
  action: 'default' | 'cap';
  /** The policy whose default or maximum decides it. */
  policy?: string;
  from?: string;
  to: string;
}

export interface ExpirySweepResult {
  dryRun: boolean;
  at: string;
  /** The policies counted (dry-run ones only with includeDryRunPolicies). */
  policies: string[];
  changes: ExpirySweepChange[];
  failed: Array<ExpirySweepChange & { error: string }>;
}

export function createExpirySweep(deps: ExpiryServiceDeps, clusters: ReturnType<typeof createClusterExpiry>) {
  return async (
    opts: { dryRun?: boolean; includeDryRunPolicies?: boolean } = {},
    origin?: AuditOrigin,
  ): Promise<ExpirySweepResult> => {
    const dryRun = opts.dryRun === true;
    if (opts.includeDryRunPolicies && !dryRun)
      throw invalid('includeDryRunPolicies', 'only a dry run may count dry-run policies (they are never applied)');
    const policies = opts.includeDryRunPolicies ? listPolicies(deps) : enforcedPolicies(deps);
    const now = deps.clock.now();
    const changes: ExpirySweepChange[] = [];
    for (const { hub, object: cd } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) {
      // Unclaimed pool clusters belong to their pool (its lifetime rules), as in policy enforcement; a cluster a
      // relocation is moving is left to the destination hub's enforcement.
      if (cd.metadata.deletionTimestamp || isUnclaimedPoolCluster(cd) || relocatingMessage(cd)) continue;
      const created = Date.parse(cd.metadata.creationTimestamp ?? '');
      if (Number.isNaN(created)) continue;
      const limits = effectiveLimits(policies, hub, cd, clusterTeamOf(deps, hub, cd));
      const current = clusterExpiry(hub, cd)?.expiresAtMs;
      const change = policyExpiry(current, created, now, limits);
      if (!change) continue;
      const policy = change.why === 'cap' ? limits.maxFrom : (limits.defaultFrom ?? limits.maxFrom);
      changes.push({
        hub,
        namespace: cd.metadata.namespace ?? '',
        name: cd.metadata.name,
        action: change.why,
        ...(policy ? { policy } : {}),
        ...(current !== undefined ? { from: new Date(current).toISOString() } : {}),
        to: new Date(change.atMs).toISOString(),
      });
    }
    changes.sort((a, b) => `${a.hub}/${a.namespace}/${a.name}`.localeCompare(`${b.hub}/${b.namespace}/${b.name}`));
    const result: ExpirySweepResult = {
      dryRun,
      at: new Date(now).toISOString(),
      policies: policies.map((p) => p.name),
      changes,
      failed: [],
    };
    if (dryRun) return result;
    const applied: ExpirySweepChange[] = [];
    for (const change of changes) {
      try {
        // Re-decided on the object and recorded as policy/<name> (through the sweep, with its caller), exactly as
        // the timers' enforcement is.
        const outcome = await clusters.enforcePolicy(
          { hub: change.hub, namespace: change.namespace, name: change.name },
          { ...(origin ? { origin } : {}) },
        );
        if (outcome.outcome !== 'none')
          applied.push({ ...change, action: outcome.outcome, to: outcome.expiresAt ?? change.to });
      } catch (err) {
        result.failed.push({ ...change, error: err instanceof Error ? err.message : String(err) });
      }
    }
    deps.log.info(
      { audit: 'expiry', sweep: true, changed: applied.length, failed: result.failed.length },
      'expiry sweep applied policies',
    );
    return { ...result, changes: applied };
  };
}
