// One cluster of a schedule sweep, as the sweep job's pool carries it out (sweep.ts): re-check eligibility against
// the cluster as it is now (the plan came from a snapshot), then the one conditional merge PATCH of spec.powerState
// with the sweep's marker (POWER_SWEEP_ANNOTATION). The marker is the durable checkpoint: a cluster already carrying
// this job's id was changed by an earlier run of the same job and is counted, never patched again. No Redis here:
// the pool's per-cluster cost is one PATCH and a little CPU.
import { setTimeout as wait } from 'node:timers/promises';
import { NotFound, Unavailable, WriteConflict } from '../../hive/errors.js';
import { actionState, powerEligibility, requestedState, type PowerAction } from '../../hive/schedule/index.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { sleep, type Clock } from '../../clock.js';
import { patchPowerState, POWER_SWEEP_ANNOTATION } from '../clusters/power-change.js';
import type { HiveStore, NamespacedRef } from '../ports.js';
import { CONFLICT_TRIES, conflictWaitMs } from '../retry-on-conflict.js';
import type { ServiceLog } from './deps.js';

export interface SweepTarget {
  cluster: NamespacedRef;
  action: PowerAction;
  reason: string;
}

export type ClusterOutcome =
  | { outcome: 'acted'; action: PowerAction }
  | { outcome: 'skipped'; reason: string; message: string }
  | { outcome: 'failed'; error: string };

/** Tries of one cluster while the hub answers 5xx or nothing (the first included); then it is `failed`. */
export const UNAVAILABLE_TRIES = 8;
/**
 * How long in all one cluster waits out the hub's 429s (and 503s with Retry-After) before it is `failed`. Those
 * answers are the hub pacing us, not failing (ARCHITECTURE.md: a sweep slows down on the server's own signal), so
 * they are not tries: counted as tries, 8 answers of 429 in a row failed a cluster after ~27 s of waiting on a hub
 * that rejected 30 % of PATCHes (test/schedule/sweep-pool.test.ts). This bound only keeps a hub that never lets a
 * PATCH through from holding its pool slot forever; kube-apiserver asks for at most 60 s at a time.
 */
export const THROTTLED_WAIT_MS = 5 * 60_000;
const FIRST_BACKOFF_MS = 250;
/** A Retry-After longer than this is cut to it: the cluster keeps its place in the pool meanwhile. */
const MAX_BACKOFF_MS = 10_000;

export interface SweepClusterDeps {
  store: HiveStore;
  clock: Clock;
  log: ServiceLog;
}

/** The sweep a cluster belongs to: its job id is the marker; `schedule` is for the log. */
export interface SweepRun {
  jobId: string;
  schedule: string;
  signal: AbortSignal;
}

export async function sweepCluster(
  deps: SweepClusterDeps,
  target: SweepTarget,
  run: SweepRun,
): Promise<ClusterOutcome & { already?: boolean }> {
  const ref = target.cluster;
  let cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', ref);
  let read = cd === undefined;
  let conflicts = 0;
  let unavailable = 0;
  let throttledMs = 0;
  for (;;) {
    run.signal.throwIfAborted();
    try {
      if (read) {
        // After a Conflict, live: Hive's own status writes move the version often, and the cache may lag.
        cd = await deps.store.get<ClusterDeployment>('ClusterDeployment', ref);
        read = false;
      }
      if (!cd) return { outcome: 'skipped', reason: 'NotFound', message: 'the cluster no longer exists' };
      if (cd.metadata.annotations?.[POWER_SWEEP_ANNOTATION] === run.jobId)
        return { outcome: 'acted', action: target.action, already: true };
      const ok = powerEligibility(cd, target.action);
      if (!ok.ok) return { outcome: 'skipped', reason: ok.reason, message: ok.message };
      await patchPowerState(deps.store, ref, cd, actionState(target.action), { sweep: run.jobId });
      deps.log.info(
        { ...ref, schedule: run.schedule, action: target.action, from: requestedState(cd) },
        'scheduled power change',
      );
      return { outcome: 'acted', action: target.action };
    } catch (err) {
      if (err instanceof NotFound)
        return { outcome: 'skipped', reason: 'NotFound', message: 'the cluster no longer exists' };
      if (err instanceof WriteConflict) {
        // Someone wrote the cluster between our read and our PATCH: judged again from a fresh read, after the
        // same back-off as every conditional write (the change may be this job's own: its marker is then there).
        if (++conflicts >= CONFLICT_TRIES) return { outcome: 'failed', error: err.message };
        await wait(conflictWaitMs(conflicts), undefined, { signal: run.signal });
        read = true;
        continue;
      }
      if (err instanceof Unavailable && err.throttled) {
        // Not acted on by the hub, so the same PATCH is sent again after the wait it asked for (the request gate
        // holds every request to the hub meanwhile too).
        const waitMs = Math.min(Math.max((err.retryAfterSeconds ?? 1) * 1000, FIRST_BACKOFF_MS), MAX_BACKOFF_MS);
        if (throttledMs + waitMs > THROTTLED_WAIT_MS)
          return { outcome: 'failed', error: `${err.message} (throttled for ${throttledMs / 1000} s)` };
        throttledMs += waitMs;
        await sleep(deps.clock, waitMs, run.signal);
        continue;
      }
      if (err instanceof Unavailable) {
        if (++unavailable >= UNAVAILABLE_TRIES) return { outcome: 'failed', error: err.message };
        // A PATCH whose answer was lost may have landed: the same precondition then meets a Conflict, and the
        // read after it finds the marker.
        const backoff = Math.max(FIRST_BACKOFF_MS * 2 ** (unavailable - 1), (err.retryAfterSeconds ?? 0) * 1000);
        await sleep(deps.clock, Math.min(backoff, MAX_BACKOFF_MS), run.signal);
        continue;
      }
      // Invalid, Forbidden or a defect: retrying does not fix it; the others go on.
      return { outcome: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  }
}
