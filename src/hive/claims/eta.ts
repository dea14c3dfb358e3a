// Time-to-ready estimates from a pool's recent history: how long its last claims waited for a running cluster.
import { condition, type ClusterClaim } from '../pools/types.js';
import { humanDuration } from './duration.js';

/** How long a claim waited from creation until Hive reported ClusterRunning=True; undefined if it never did. */
export function claimWaitMs(claim: ClusterClaim): number | undefined {
  const running = condition(claim, 'ClusterRunning');
  if (running?.status !== 'True' || !running.lastTransitionTime || !claim.metadata.creationTimestamp) return undefined;
  return Math.max(0, Date.parse(running.lastTransitionTime) - Date.parse(claim.metadata.creationTimestamp));
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

/**
 * Estimate for a claim with `ahead` claims before it, waiting `elapsedMs` so far. The pool replenishes up to
 * `parallel` clusters at once (its size), so every `parallel` claims ahead cost about one more typical wait.
 */
export function estimateWait(samplesMs: number[], ahead: number, elapsedMs: number, parallel: number): Eta | undefined {
  if (samplesMs.length === 0) return undefined;
  const typical = median(samplesMs);
  const rounds = 1 + Math.floor(ahead / Math.max(1, parallel));
  const remaining = Math.max(0, typical * rounds - elapsedMs);
  const n = samplesMs.length;
  return {
    seconds: Math.round(remaining / 1000),
    basis: `the last ${n === 1 ? 'claim' : `${n} claims`} on this pool waited ${humanDuration(typical)}${n === 1 ? '' : ' (median)'}${rounds > 1 ? `, ${rounds} rounds of supply for the queue ahead` : ''}`,
  };
}
