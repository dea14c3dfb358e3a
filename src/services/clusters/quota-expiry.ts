// A new cluster under a team quota with maxLifetimeHours: the expiry the request gives is checked against it (by
// the quota guard), and a request without one gets the longest the quota allows (never past an ExpiryPolicy's
// maxLifetime), so no cluster of such a team is created to live forever (docs/quotas.md).
import { formatGoDuration, parseGoDuration } from '../../hive/duration.js';
import type { CreateClusterRequest } from './create-request.js';
import type { ClusterServiceDeps } from './deps.js';
import { maxLifetimeLimits, type PolicyHome } from './expiry-limits.js';

export interface QuotaExpiry {
  req: CreateClusterRequest;
  /** How long from now the cluster is to live, when the team's quota has a maxLifetimeHours to check it against. */
  lifetimeMs?: number;
  /** Why the expiry was given by Beekeeper (recorded in the expiry history), when it was. */
  defaulted?: string;
}

export function withQuotaExpiry(
  deps: Pick<ClusterServiceDeps, 'quotas' | 'store'> & PolicyHome,
  req: CreateClusterRequest,
  nowMs: number,
): QuotaExpiry {
  const maxMs = deps.quotas?.clusterMaxLifetimeMs(req.hub, req.namespace);
  if (maxMs === undefined) return { req };
  if (req.expiresIn !== undefined) return { req, lifetimeMs: parseGoDuration(req.expiresIn)! };
  if (req.expiresAt !== undefined) return { req, lifetimeMs: Date.parse(req.expiresAt) - nowMs };
  const policy = maxLifetimeLimits(deps, req.hub, {
    metadata: { name: req.name, namespace: req.namespace, labels: req.labels },
  })?.maxLifetimeMs;
  const ms = Math.min(maxMs, policy ?? maxMs);
  return {
    req: { ...req, expiresIn: formatGoDuration(ms) },
    defaulted: `no expiry was given: the team's quota maxLifetimeHours (${formatGoDuration(maxMs)}) sets it`,
  };
}
