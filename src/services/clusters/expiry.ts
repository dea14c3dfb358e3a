// PUT .../expiry: Beekeeper writes Hive's own `hive.openshift.io/delete-after`, so Hive enforces the expiry even
// while Beekeeper is down (ARCHITECTURE.md principle 5). The annotation is a duration from creationTimestamp.
import { ANNOTATIONS } from '../../hive/constants.js';
import { deleteAfterFor } from '../../hive/delete-after.js';
import { parseGoDuration } from '../../hive/duration.js';
import { Conflict, Invalid, NotFound, invalid } from '../../hive/errors.js';
import { isTruthy } from '../../hive/go-bool.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ObjectRef } from '../ports.js';
import { audit } from './audit.js';
import type { ClusterServiceDeps } from './deps.js';
import { summarize, type ClusterSummary } from './cluster-summary.js';
import { expiresInProblem } from './expires-in.js';
import { checkExpiryCap, maxLifetimeLimits, type PolicyHome } from './expiry-limits.js';

export interface ExpiryRequest {
  /** RFC 3339 time, or null to clear the expiry. */
  expiresAt?: string | null;
  /** Go duration from now, e.g. `8h` (no `d` unit, as in Hive). */
  expiresIn?: string;
}

export interface ExpiryResult {
  cluster: ClusterSummary;
  warnings: string[];
}

function targetTime(req: ExpiryRequest, now: number): Date | null {
  const hasAt = req.expiresAt !== undefined;
  const hasIn = req.expiresIn !== undefined;
  if (hasAt === hasIn) throw new Invalid('give exactly one of expiresAt and expiresIn', [{ field: 'expiresAt', reason: 'give exactly one of expiresAt (a time, or null to clear) and expiresIn' }]);
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

/**
 * The write is conditional on the resourceVersion it was computed from, so the duration always matches the
 * creationTimestamp of the object it lands on; Hive's own status writes make the cache go stale, so a conflict
 * re-reads the object live and tries again.
 */
async function writeDeleteAfter(deps: ClusterServiceDeps, ref: ObjectRef, first: ClusterDeployment, at: Date | null): Promise<{ updated: ClusterDeployment; value: string | null }> {
  let cd = first;
  for (let attempt = 1; ; attempt++) {
    const value = at ? deleteAfterFor(cd.metadata.creationTimestamp!, at) : null;
    try {
      const updated = await deps.store.mergePatch<ClusterDeployment>(
        'ClusterDeployment',
        ref,
        { metadata: { annotations: { [ANNOTATIONS.deleteAfter]: value } } },
        { resourceVersion: cd.metadata.resourceVersion },
      );
      return { updated, value };
    } catch (err) {
      if (!(err instanceof Conflict) || attempt >= 5) throw err;
      const live = await deps.store.get<ClusterDeployment>('ClusterDeployment', ref);
      if (!live) throw new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
      cd = live;
    }
  }
}

export async function setExpiry(deps: ClusterServiceDeps & PolicyHome, ref: ObjectRef, cd: ClusterDeployment, req: ExpiryRequest): Promise<ExpiryResult> {
  const now = deps.clock.now();
  const at = targetTime(req, now);
  checkExpiryCap(req, now, Date.parse(cd.metadata.creationTimestamp ?? ''), maxLifetimeLimits(deps, ref.hub, cd));
  const { updated, value } = await writeDeleteAfter(deps, ref, cd, at);
  await audit(deps.store, deps.log, ref, {
    type: 'Normal',
    reason: value ? 'ExpirySet' : 'ExpiryCleared',
    action: 'SetExpiry',
    message: value ? `Beekeeper set ${ANNOTATIONS.deleteAfter}=${value} (expires ${at!.toISOString()})` : `Beekeeper removed ${ANNOTATIONS.deleteAfter}`,
  });
  const warnings: string[] = [];
  if (value && isTruthy(updated.metadata.annotations?.[ANNOTATIONS.protectedDelete])) {
    warnings.push(`the cluster is delete-protected (${ANNOTATIONS.protectedDelete}); Hive's delete at expiry will be refused until protection is lifted`);
  }
  if (value && isTruthy(updated.metadata.annotations?.[ANNOTATIONS.reconcilePause])) {
    warnings.push(`${ANNOTATIONS.reconcilePause} is set; Hive ignores delete-after while it is`);
  }
  return { cluster: summarize(ref.hub, updated, { detail: true }), warnings };
}
