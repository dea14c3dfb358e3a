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
  created(a) - created(b) || (a.metadata.namespace < b.metadata.namespace ? -1 : a.metadata.namespace > b.metadata.namespace ? 1 : 0);

export const isMarkedForRemoval = (cd: Obj): boolean =>
  isTruthy(ann(cd, A.removeFromPool)) || isTruthy(ann(cd, A.removeClaimedFromPool));

/**
 * isBroken: ProvisionStopped=True, or a resume that has outlasted hibernationConfig.resumeTimeout
 * (Hibernating reason ResumingOrRunning for longer than the timeout while not yet Running).
 */
export function isBroken(cd: Obj, pool: Obj, now: number): boolean {
  if (findCondition(cd.status?.conditions, 'ProvisionStopped')?.status === 'True') return true;
  const raw = pool.spec?.hibernationConfig?.resumeTimeout;
  if (!raw || !cd.spec?.installed || cd.spec.powerState !== 'Running') return false;
  const ps = cd.status?.powerState;
  if (ps === 'Hibernating' || ps === 'Running') return false;
  const hib = findCondition(cd.status?.conditions, 'Hibernating');
  if (hib?.reason !== 'ResumingOrRunning') return false;
  let timeout: number;
  try {
    timeout = parseGoDuration(raw);
  } catch {
    return false;
  }
  return timeout > 0 && (fromTime(hib.lastTransitionTime) ?? now) + timeout < now;
}

export function collectPoolCds(cds: Obj[], pool: Obj, poolHash: string, now: number): PoolCollection {
  const c: PoolCollection = {
    all: [...cds].sort(byAge), claimed: [], deleting: [], markedForRemoval: [], unassigned: [],
    installing: [], broken: [], standby: [], ready: [], stale: [],
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
