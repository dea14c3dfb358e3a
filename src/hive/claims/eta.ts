// Time-to-ready estimates from a pool's recent history, read from Kubernetes itself (so every replica, and a
// restarted one, gives the same estimate): the pool's claimed ClusterDeployments and their claims say how long
// claims waited; the pool's installed ClusterDeployments say how long a build takes (REFERENCE.md §2, §4-5).
import { condition, type ClusterClaim, type ClusterDeployment } from '../pools/types.js';
import { humanDuration } from './duration.js';

/** How many of the most recent samples an estimate rests on. */
export const RECENT_SAMPLES = 20;

/** How long a claim waited from creation until Hive reported ClusterRunning=True; undefined if it never did. */
export function claimWaitMs(claim: ClusterClaim): number | undefined {
  const running = condition(claim, 'ClusterRunning');
  if (running?.status !== 'True' || !running.lastTransitionTime || !claim.metadata.creationTimestamp) return undefined;
  return Math.max(0, Date.parse(running.lastTransitionTime) - Date.parse(claim.metadata.creationTimestamp));
}

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

function mostRecent(samples: Array<{ at: number; ms: number }>, keep: number): number[] {
  return samples.sort((a, b) => a.at - b.at).slice(-keep).map((s) => s.ms);
}

/**
 * Waits of the pool's claims that got a cluster, oldest first: creation to ClusterRunning=True where the claim
 * reports it, else creation to assignment (the CD's `clusterPoolRef.claimedTimestamp`, or the claim's Pending=False
 * transition). Claims already released take their clusters with them, so this is the pool's live history.
 */
export function claimWaitSamples(poolClusters: ClusterDeployment[], claims: ClusterClaim[], keep = RECENT_SAMPLES): number[] {
  const byName = new Map(claims.map((c) => [c.metadata.name, c]));
  const samples: Array<{ at: number; ms: number }> = [];
  for (const cd of poolClusters) {
    const ref = cd.spec.clusterPoolRef;
    const claim = ref?.claimName ? byName.get(ref.claimName) : undefined;
    if (!claim || claim.spec.namespace !== cd.metadata.namespace) continue;
    const pending = condition(claim, 'Pending');
    const claimedAt = ms(ref?.claimedTimestamp) || (pending?.status === 'False' ? ms(pending.lastTransitionTime) : NaN);
    const created = ms(claim.metadata.creationTimestamp);
    if (Number.isNaN(claimedAt) || Number.isNaN(created)) continue;
    samples.push({ at: claimedAt, ms: claimWaitMs(claim) ?? Math.max(0, claimedAt - created) });
  }
  return mostRecent(samples, keep);
}

/** Install durations (`status.installedTimestamp - creationTimestamp`) of the pool's clusters, oldest first. */
export function installSamples(poolClusters: ClusterDeployment[], keep = RECENT_SAMPLES): number[] {
  const samples: Array<{ at: number; ms: number }> = [];
  for (const cd of poolClusters) {
    const installed = ms(cd.status?.installedTimestamp);
    const created = ms(cd.metadata.creationTimestamp);
    if (!Number.isNaN(installed) && !Number.isNaN(created) && installed >= created) samples.push({ at: installed, ms: installed - created });
  }
  return mostRecent(samples, keep);
}

export interface Eta {
  seconds: number;
  /** What the estimate rests on, in plain words. */
  basis: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const WORDS = {
  claims: (n: number, typical: string) => `the last ${n === 1 ? 'claim' : `${n} claims`} on this pool waited ${typical}`,
  installs: (n: number, typical: string) => `the last ${n === 1 ? 'install' : `${n} installs`} in this pool took ${typical}`,
};

/**
 * Estimate for a claim with `ahead` claims before it, waiting `elapsedMs` so far. The pool replenishes up to
 * `parallel` clusters at once (its size), so every `parallel` claims ahead cost about one more typical wait.
 * `samples` are claim waits, or install durations for a claim that waits for the pool to build.
 */
export function estimateWait(samplesMs: number[], ahead: number, elapsedMs: number, parallel: number, samples: keyof typeof WORDS = 'claims'): Eta | undefined {
  if (samplesMs.length === 0) return undefined;
  const typical = median(samplesMs);
  const rounds = 1 + Math.floor(ahead / Math.max(1, parallel));
  const remaining = Math.max(0, typical * rounds - elapsedMs);
  const n = samplesMs.length;
  return {
    seconds: Math.round(remaining / 1000),
    basis: `${WORDS[samples](n, humanDuration(typical))}${n === 1 ? '' : ' (median)'}${rounds > 1 ? `, ${rounds} rounds of supply for the queue ahead` : ''}`,
  };
}
