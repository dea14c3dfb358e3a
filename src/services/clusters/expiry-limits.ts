// Expiry under ExpiryPolicy caps, checked when a person asks (PUT .../expiry, POST /v1/clusters), so a too-late
// expiry is refused with the reason instead of being accepted and quietly capped by the expiry timers later. The
// rules are hive/expiry's (effectiveLimits, requestedExpiry): the cap is measured from creationTimestamp, as Hive
// counts delete-after (REFERENCE.md §2.6).
import { Invalid, invalid, type FieldIssue } from '../../hive/errors.js';
import { effectiveLimits, requestedExpiry, type EffectiveLimits } from '../../hive/expiry/index.js';
import { formatGoDuration } from '../../hive/duration.js';
import { isUnclaimedPoolCluster } from '../../hive/schedule/index.js';
import { enforcedPolicies } from '../expiry/policy-store.js';
import type { HiveStore } from '../ports.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { clusterTeamOf, type TeamScope } from '../team-scope.js';

/** Where ExpiryPolicies live (the state hub and namespace); without it no policy caps anything. */
export interface PolicyHome extends TeamScope {
  stateHub?: string;
  stateNamespace?: string;
}

/** The limits with a maximum lifetime for a cluster, if any policy in force gives one. */
export function maxLifetimeLimits(
  deps: { store: HiveStore } & PolicyHome,
  hub: string,
  cd: Pick<ClusterDeployment, 'metadata'> & { spec?: ClusterDeployment['spec'] },
): EffectiveLimits | undefined {
  const { stateHub, stateNamespace } = deps;
  // Unclaimed pool clusters are their pool's business (the expiry feature leaves them alone too).
  if (!stateHub || !stateNamespace || isUnclaimedPoolCluster(cd)) return undefined;
  // A team's policy caps its own team's clusters only.
  const limits = effectiveLimits(
    enforcedPolicies({ store: deps.store, stateHub, stateNamespace }),
    hub,
    cd,
    clusterTeamOf(deps, hub, cd),
  );
  return limits.maxLifetimeMs === undefined ? undefined : limits;
}

const OUR_FIELD: Record<string, string> = { at: 'expiresAt', in: 'expiresIn' };

/**
 * Refuses (Invalid naming expiresAt/expiresIn, the policy and its maximum) an expiry beyond the cap. `expiresAt:
 * null` (no expiry at all) is beyond any cap.
 */
export function checkExpiryCap(
  req: { expiresAt?: string | null; expiresIn?: string },
  nowMs: number,
  createdMs: number,
  limits: EffectiveLimits | undefined,
): void {
  if (!limits) return;
  if (req.expiresAt === null) {
    throw invalid(
      'expiresAt',
      `cannot remove the expiry: policy ${limits.maxFrom} caps the lifetime at maxLifetime ${formatGoDuration(limits.maxLifetimeMs!)} from creation`,
    );
  }
  try {
    requestedExpiry({ at: req.expiresAt, in: req.expiresIn }, nowMs, createdMs, limits);
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    const fields = err.fields.map((f) => ({ field: OUR_FIELD[f.field] ?? f.field, reason: f.reason }));
    throw new Invalid(fields.map((f) => `${f.field}: ${f.reason}`).join('; '), fields);
  }
}

/** For POST /v1/clusters: the cap's refusal as field issues (the cluster is created now, so it counts from now). */
export function createExpiryIssues(
  deps: { store: HiveStore } & PolicyHome,
  req: {
    hub: string;
    namespace: string;
    name: string;
    labels?: Record<string, string>;
    expiresAt?: string;
    expiresIn?: string;
  },
  nowMs: number,
): FieldIssue[] {
  if (req.expiresAt === undefined && req.expiresIn === undefined) return [];
  const limits = maxLifetimeLimits(deps, req.hub, {
    metadata: { name: req.name, namespace: req.namespace, labels: req.labels },
  });
  try {
    checkExpiryCap(req, nowMs, nowMs, limits);
    return [];
  } catch (err) {
    if (err instanceof Invalid) return err.fields;
    throw err;
  }
}
