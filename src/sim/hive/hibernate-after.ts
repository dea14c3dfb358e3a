import type { ReconcileResult } from '../client/index.js';
import type { HiveContext, Obj } from './context.js';
import { findCondition } from './conditions.js';
import { fromTime, parseGoDuration } from './go-values.js';

/**
 * hibernateAfter: once the latest of installedTimestamp, claimedTimestamp and Ready's transition (if True) is
 * older than the duration, Hive writes spec.powerState=Hibernating itself. Unclaimed pool CDs are exempt.
 */
export function hibernateAfter(ctx: HiveContext, cd: Obj): 'hibernate' | ReconcileResult | undefined {
  const raw = cd.spec.hibernateAfter;
  if (!raw || cd.spec.powerState === 'Hibernating') return undefined;
  const pool = cd.spec.clusterPoolRef;
  if (pool?.poolName && (!pool.claimName || !pool.claimedTimestamp)) return undefined;
  const hib = findCondition(cd.status?.conditions, 'Hibernating');
  const ready = findCondition(cd.status?.conditions, 'Ready');
  const isRunning = !hib || hib.status === 'Unknown' || ready?.status === 'True';
  if (!isRunning) return undefined;
  let duration: number;
  try {
    duration = parseGoDuration(raw);
  } catch {
    return undefined;
  }
  const baseline = Math.max(
    fromTime(cd.status?.installedTimestamp) ?? 0,
    fromTime(pool?.claimedTimestamp) ?? 0,
    ready?.status === 'True' ? (fromTime(ready.lastTransitionTime) ?? 0) : 0,
  );
  const left = baseline + duration - ctx.clock.now();
  return left <= 0 ? 'hibernate' : { requeueAfter: left };
}
