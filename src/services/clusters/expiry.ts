// PUT .../expiry: Beekeeper writes Hive's own `hive.openshift.io/delete-after`, so Hive enforces the expiry even
// while Beekeeper is down (ARCHITECTURE.md principle 5). The annotation is a duration from creationTimestamp. Every
// change (set, shorten, extend, clear) is recorded as any expiry change is (services/expiry/expiry-record.ts).
import { ANNOTATIONS } from '../../hive/constants.js';
import { parseGoDuration } from '../../hive/duration.js';
import { Invalid, invalid } from '../../hive/errors.js';
import { isTruthy } from '../../hive/go-bool.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { writeClusterExpiry } from '../expiry/cluster-expiry-write.js';
import { requestActor, type AuditOrigin } from '../expiry/expiry-record.js';
import type { ObjectRef } from '../ports.js';
import type { ClusterServiceDeps } from './deps.js';
import { summarize, type ClusterSummary } from './cluster-summary.js';
import { expiresInProblem } from './expires-in.js';
import { checkExpiryCap, maxLifetimeLimits, type PolicyHome } from './expiry-limits.js';

export interface ExpiryRequest {
  /** RFC 3339 time, or null to clear the expiry. */
  expiresAt?: string | null;
  /** Go duration from now, e.g. `8h` (no `d` unit, as in Hive). */
  expiresIn?: string;
  /** Who asks (recorded); default: the API token's holder. */
  by?: string;
  /** Why (recorded). */
  reason?: string;
}

export interface ExpiryResult {
  cluster: ClusterSummary;
  warnings: string[];
}

function targetTime(req: ExpiryRequest, now: number): Date | null {
  const hasAt = req.expiresAt !== undefined;
  const hasIn = req.expiresIn !== undefined;
  if (hasAt === hasIn)
    throw new Invalid('give exactly one of expiresAt and expiresIn', [
      { field: 'expiresAt', reason: 'give exactly one of expiresAt (a time, or null to clear) and expiresIn' },
    ]);
  if (hasIn) {
    const why = expiresInProblem(req.expiresIn!);
    if (why) throw invalid('expiresIn', why);
    return new Date(now + parseGoDuration(req.expiresIn!)!);
  }
  if (req.expiresAt === null) return null;
  const at = Date.parse(req.expiresAt!);
  if (Number.isNaN(at)) throw invalid('expiresAt', 'must be an RFC 3339 time such as 2026-11-22T18:00:00Z, or null');
  if (at <= now) throw invalid('expiresAt', 'must be in the future');
  return new Date(at);
}

/** A PUT that changes nothing (the same expiry again) writes and records nothing. */
export async function setExpiry(
  deps: ClusterServiceDeps & PolicyHome,
  ref: ObjectRef,
  cd: ClusterDeployment,
  req: ExpiryRequest,
  origin: AuditOrigin,
): Promise<ExpiryResult> {
  const now = deps.clock.now();
  const at = targetTime(req, now);
  const { cd: updated } = await writeClusterExpiry(
    deps,
    ref,
    cd,
    (live) => {
      const createdMs = Date.parse(live.metadata.creationTimestamp ?? '');
      checkExpiryCap(req, now, createdMs, maxLifetimeLimits(deps, ref.hub, live));
      // The team's maxLifetimeHours counts from creation too, as Hive counts delete-after.
      deps.quotas?.admitClusterLifetime(ref.hub, live, at ? at.getTime() - (createdMs || now) : null);
      return { atMs: at ? at.getTime() : null };
    },
    requestActor(origin, req),
  );
  const annotations = updated.metadata.annotations;
  const warnings: string[] = [];
  if (annotations?.[ANNOTATIONS.deleteAfter] && isTruthy(annotations[ANNOTATIONS.protectedDelete])) {
    warnings.push(
      `the cluster is delete-protected (${ANNOTATIONS.protectedDelete}); Hive's delete at expiry will be refused until protection is lifted`,
    );
  }
  if (annotations?.[ANNOTATIONS.deleteAfter] && isTruthy(annotations[ANNOTATIONS.reconcilePause])) {
    warnings.push(`${ANNOTATIONS.reconcilePause} is set; Hive ignores delete-after while it is`);
  }
  return { cluster: summarize(ref.hub, updated, { detail: true }), warnings };
}
