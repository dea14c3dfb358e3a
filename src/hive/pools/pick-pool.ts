// Choosing a pool for a claim by attributes, across pools and hubs, the way CI users expect: the pool that can
// hand over a running cluster soonest. Hive only assigns Running clusters (REFERENCE.md §4.3), so ready clusters
// come first; then a larger pool (more clusters on their way), then a larger maxSize (more headroom).
import { poolAttributes } from './pool-attributes.js';
import { describeSelector, selectorMismatches, type PoolSelector } from './pool-selector.js';
import { findCondition } from '../types.js';
import type { ClusterImageSet, ClusterPool } from './types.js';

export interface PoolCandidate {
  hub: string;
  pool: ClusterPool;
  imageSet?: ClusterImageSet;
  /** Unassigned claims already queued on the pool; each takes one of its ready clusters first. */
  queuedClaims?: number;
}

export interface PoolChoice {
  hub: string;
  pool: ClusterPool;
  /** One sentence: why this pool. */
  reason: string;
  /** Every pool looked at, with why it was passed over. */
  considered: Array<{ id: string; verdict: string }>;
}

const id = (c: PoolCandidate) => `${c.hub}/${c.pool.metadata.namespace}/${c.pool.metadata.name}`;
const freeReady = (c: PoolCandidate) => Math.max(0, (c.pool.status?.ready ?? 0) - (c.queuedClaims ?? 0));
const maxSize = (c: PoolCandidate) => c.pool.spec.maxSize ?? Number.POSITIVE_INFINITY;

function unusable(c: PoolCandidate): string | undefined {
  if (c.pool.metadata.deletionTimestamp) return 'being deleted, it fills no new claims';
  const missing = findCondition(c.pool, 'MissingDependencies');
  if (missing?.status === 'True') return `missing dependencies (${missing.message ?? 'see the pool'})`;
  return undefined;
}

function compare(a: PoolCandidate, b: PoolCandidate): number {
  return (
    freeReady(b) - freeReady(a) ||
    b.pool.spec.size - a.pool.spec.size ||
    (maxSize(b) === maxSize(a) ? 0 : maxSize(b) > maxSize(a) ? 1 : -1) ||
    id(a).localeCompare(id(b))
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const maxText = (c: PoolCandidate) =>
  c.pool.spec.maxSize === undefined ? 'no maxSize' : `maxSize ${c.pool.spec.maxSize}`;

/** Why `winner` beat `runnerUp`, naming the first rule that separated them. */
function tieBreak(winner: PoolCandidate, runnerUp: PoolCandidate | undefined): string {
  if (!runnerUp) return 'the only matching pool';
  if (freeReady(winner) !== freeReady(runnerUp))
    return `most ready clusters (${freeReady(winner)} free against ${freeReady(runnerUp)} in ${id(runnerUp)})`;
  if (winner.pool.spec.size !== runnerUp.pool.spec.size)
    return `equally ready, larger size (${winner.pool.spec.size} against ${runnerUp.pool.spec.size} in ${id(runnerUp)})`;
  if (maxSize(winner) !== maxSize(runnerUp))
    return `equally ready and sized, more headroom (${maxText(winner)} against ${maxText(runnerUp)} in ${id(runnerUp)})`;
  return `equal to ${id(runnerUp)} on ready clusters, size and maxSize; first by name`;
}

/** The best pool for `selector`, or undefined with every pool's verdict when none fits. */
export function pickPool(
  candidates: PoolCandidate[],
  selector: PoolSelector,
): PoolChoice | { reason: string; considered: PoolChoice['considered'] } {
  const considered: PoolChoice['considered'] = [];
  const fitting: PoolCandidate[] = [];
  for (const c of candidates) {
    const mismatches = selectorMismatches(c.hub, poolAttributes(c.pool, c.imageSet), selector);
    const problem = mismatches.length ? mismatches.join('; ') : unusable(c);
    if (problem) considered.push({ id: id(c), verdict: `not used: ${problem}` });
    else fitting.push(c);
  }
  fitting.sort(compare);
  const [winner, runnerUp] = fitting;
  for (const [i, c] of fitting.entries()) {
    considered.push({
      id: id(c),
      verdict: `${i === 0 ? 'picked' : 'matches, ranked ' + (i + 1)}: ${plural(freeReady(c), 'free ready cluster')}, size ${c.pool.spec.size}, ${maxText(c)}`,
    });
  }
  if (!winner) {
    const wanted = describeSelector(selector);
    return {
      reason: candidates.length
        ? `no pool matches ${wanted}`
        : `no pools exist${selector.hub ? ` on hub ${selector.hub}` : ''}`,
      considered,
    };
  }
  return {
    hub: winner.hub,
    pool: winner.pool,
    reason: `picked ${id(winner)} for ${describeSelector(selector)}: ${tieBreak(winner, runnerUp)}`,
    considered,
  };
}

export function isPoolChoice(x: ReturnType<typeof pickPool>): x is PoolChoice {
  return 'pool' in x;
}
