// Time-to-ready estimates from a pool's history, read from Kubernetes itself (so every replica, and a restarted one,
// gives the same estimate): the pool's ClusterDeployments record how long their installs took
// (creationTimestamp -> status.installedTimestamp, REFERENCE.md §2.2) and how long their last start took (the
// Hibernating condition's move to False/ResumingOrRunning -> Ready=True, §2.5). A claim waits for one of these, so
// the estimate follows the cluster it will get, not the waits of earlier claims (most were served from stock in
// seconds, which made a 40-minute install read as 0 s).
import { CONDITIONS } from '../constants.js';
import { findCondition, type ClusterDeployment } from '../types.js';
import type { ClusterClaim } from '../pools/types.js';
import { humanDuration } from './duration.js';

/** How many of the most recent samples an estimate rests on. */
export const RECENT_SAMPLES = 20;

/** How long a claim waited from creation until Hive reported ClusterRunning=True; undefined if it never did. */
export function claimWaitMs(claim: ClusterClaim): number | undefined {
  const running = findCondition(claim, 'ClusterRunning');
  if (running?.status !== 'True' || !running.lastTransitionTime || !claim.metadata.creationTimestamp) return undefined;
  return Math.max(0, Date.parse(running.lastTransitionTime) - Date.parse(claim.metadata.creationTimestamp));
}

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

function mostRecent(samples: Array<{ at: number; ms: number }>, keep: number): number[] {
  return samples
    .sort((a, b) => a.at - b.at)
    .slice(-keep)
    .map((s) => s.ms);
}

/** Install durations (`status.installedTimestamp - creationTimestamp`) of the pool's clusters, oldest first. */
export function installSamples(poolClusters: ClusterDeployment[], keep = RECENT_SAMPLES): number[] {
  const samples: Array<{ at: number; ms: number }> = [];
  for (const cd of poolClusters) {
    const installed = ms(cd.status?.installedTimestamp);
    const created = ms(cd.metadata.creationTimestamp);
    if (!Number.isNaN(installed) && !Number.isNaN(created) && installed >= created)
      samples.push({ at: installed, ms: installed - created });
  }
  return mostRecent(samples, keep);
}

/**
 * When the cluster's current (or last) start began: Hive moves Hibernating to False/ResumingOrRunning when it
 * issues the start call, after an install as after a hibernation, and keeps that transition time until the next
 * stop. Undefined when no start has begun.
 */
export function resumeStartedAt(cd: ClusterDeployment): number | undefined {
  const hibernating = findCondition(cd, CONDITIONS.hibernating);
  if (hibernating?.status !== 'False' || hibernating.reason !== 'ResumingOrRunning') return undefined;
  const at = ms(hibernating.lastTransitionTime);
  return Number.isNaN(at) ? undefined : at;
}

/** How long the last start of each of the pool's running clusters took, oldest first. */
export function resumeSamples(poolClusters: ClusterDeployment[], keep = RECENT_SAMPLES): number[] {
  const samples: Array<{ at: number; ms: number }> = [];
  for (const cd of poolClusters) {
    const ready = findCondition(cd, CONDITIONS.ready);
    const started = resumeStartedAt(cd);
    const done = ms(ready?.lastTransitionTime);
    if (ready?.status !== 'True' || started === undefined || Number.isNaN(done) || done < started) continue;
    samples.push({ at: done, ms: done - started });
  }
  return mostRecent(samples, keep);
}

/** What a pool's clusters say about how long its work takes. */
export interface PoolHistory {
  installsMs: number[];
  resumesMs: number[];
}

export const poolHistory = (poolClusters: ClusterDeployment[]): PoolHistory => ({
  installsMs: installSamples(poolClusters),
  resumesMs: resumeSamples(poolClusters),
});

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

function typical(samples: number[], what: 'install' | 'resume') {
  if (samples.length === 0) return undefined;
  const n = samples.length;
  const value = median(samples);
  const words = `${n === 1 ? `the last ${what}` : `the last ${n} ${what}s`} in this pool took ${humanDuration(value)}${n === 1 ? '' : ' (median)'}`;
  return { ms: value, words };
}

const created = (cd: ClusterDeployment) => ms(cd.metadata.creationTimestamp);

/** Why there is no estimate, for a message: said instead of a made-up 0 s. */
export const NO_INSTALL_HISTORY = 'no estimate yet: no install in this pool has finished';
export const NO_RESUME_HISTORY = 'no estimate yet: no cluster of this pool has finished a resume';

/** Time until `cd` (resuming, or hibernated and about to be resumed) runs; undefined without resume history. */
export function estimateResume(cd: ClusterDeployment, history: PoolHistory, now: number): Eta | undefined {
  const resume = typical(history.resumesMs, 'resume');
  if (!resume) return undefined;
  const elapsed = now - (resumeStartedAt(cd) ?? now);
  const left = resume.ms - elapsed;
  return {
    seconds: Math.max(0, Math.round(left / 1000)),
    basis: `${resume.words}${left < 0 ? '; this one is taking longer' : ''}`,
  };
}

/**
 * Time until a cluster that is installing (`cd`), or that Hive has yet to create (`cd` undefined, after `rounds`
 * rounds of installs when the pool's maxConcurrent holds it back), runs: the rest of a typical install, then its
 * first start (Hive runs the resume sequence after every install, REFERENCE.md §2.5). Undefined without install
 * history.
 */
export function estimateBuild(
  cd: ClusterDeployment | undefined,
  history: PoolHistory,
  now: number,
  rounds = 1,
): Eta | undefined {
  const install = typical(history.installsMs, 'install');
  if (!install) return undefined;
  const start = typical(history.resumesMs, 'resume');
  const elapsed = cd ? Math.max(0, now - (created(cd) || now)) : 0;
  const left = install.ms * rounds - elapsed;
  const basis = [
    install.words,
    rounds > 1 ? `${rounds} rounds of installs` : '',
    start ? start.words.replace(' in this pool', '') : '',
    left < 0 ? 'this one is taking longer' : '',
  ].filter(Boolean);
  return { seconds: Math.round((Math.max(0, left) + (start?.ms ?? 0)) / 1000), basis: basis.join('; ') };
}
