import { type Obj, A, ann, created, isDeleting } from './context.js';
import { findCondition } from './conditions.js';
import { fromTime, isTruthy, parseGoDuration } from './go-values.js';

/** cdCollection in pkg/controller/clusterpool/collections.go: a pool's CDs sorted into the buckets its arithmetic uses. */
export interface PoolCollection {
  all: Obj[];
  claimed: Obj[];
  deleting: Obj[];
  markedForRemoval: Obj[];
  /** Unclaimed, not deleting, not marked: installing + standby + ready + broken. */
  unassigned: Obj[];
  installing: Obj[];
  broken: Obj[];
  standby: Obj[];
  ready: Obj[];
  stale: Obj[];
}

export const byAge = (a: Obj, b: Obj): number =>
  created(a) - created(b) ||
  (a.metadata.namespace < b.metadata.namespace ? -1 : a.metadata.namespace > b.metadata.namespace ? 1 : 0);

export const isMarkedForRemoval = (cd: Obj): boolean =>
  isTruthy(ann(cd, A.removeFromPool)) || isTruthy(ann(cd, A.removeClaimedFromPool));

/**
 * When an unclaimed CD that is resuming would outlast hibernationConfig.resumeTimeout (ms from now), or
 * undefined when no timeout applies. The resume is measured from the Hibernating condition's move to
 * ResumingOrRunning.
 */
export function resumeDeadline(cd: Obj, pool: Obj, now: number): number | undefined {
  const raw = pool.spec?.hibernationConfig?.resumeTimeout;
  if (!raw || !cd.spec?.installed || cd.spec.powerState !== 'Running') return undefined;
  const ps = cd.status?.powerState;
  if (ps === 'Hibernating' || ps === 'Running') return undefined;
  const hib = findCondition(cd.status?.conditions, 'Hibernating');
  if (hib?.reason !== 'ResumingOrRunning') return undefined;
  let timeout: number;
  try {
    timeout = parseGoDuration(raw);
  } catch {
    return undefined;
  }
  if (!(timeout > 0)) return undefined;
  return (fromTime(hib.lastTransitionTime) ?? now) + timeout - now;
}

/** isBroken: ProvisionStopped=True, or a resume that has outlasted hibernationConfig.resumeTimeout. */
export function isBroken(cd: Obj, pool: Obj, now: number): boolean {
  if (findCondition(cd.status?.conditions, 'ProvisionStopped')?.status === 'True') return true;
  const left = resumeDeadline(cd, pool, now);
  return left !== undefined && left <= 0; // time.Since(transition) >= resumeTimeout
}

export function collectPoolCds(cds: Obj[], pool: Obj, poolHash: string, now: number): PoolCollection {
  const c: PoolCollection = {
    all: [...cds].sort(byAge),
    claimed: [],
    deleting: [],
    markedForRemoval: [],
    unassigned: [],
    installing: [],
    broken: [],
    standby: [],
    ready: [],
    stale: [],
  };
  for (const cd of c.all) {
    if (isDeleting(cd)) c.deleting.push(cd);
    else if (isMarkedForRemoval(cd)) c.markedForRemoval.push(cd);
    else if (cd.spec?.clusterPoolRef?.claimName) c.claimed.push(cd);
    else {
      c.unassigned.push(cd);
      if (ann(cd, A.poolSpecHash) !== poolHash) c.stale.push(cd);
      if (isBroken(cd, pool, now)) c.broken.push(cd);
      else if (!cd.spec?.installed) c.installing.push(cd);
      else if (cd.status?.powerState === 'Running') c.ready.push(cd);
      else c.standby.push(cd);
    }
  }
  return c;
}
