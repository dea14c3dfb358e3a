// The scheduler role for hibernation schedules: timers on the injected clock that only enqueue. Every job id is
// derived from the schedule (or cluster) and the edge instant, so three replicas produce one job per edge; the
// schedule's status.lastSweep (written by the sweep) is the durable record that survives a Redis flush.
//
// Missed edges (the scheduler was down): at start and on every change, the latest edge at or before now is
// swept if no sweep recorded it and it is at most `catchUpDeadline` old; the sweep then applies the state the
// schedule says *now*. Older edges are recorded as missed and never replayed.
import { jobOf } from '../services/job-definition.js';
import type { KubeObject } from '../services/ports.js';
import { jobIds } from '../services/job-ids.js';
import { enqueueFixed, type FixedJob } from '../services/resync/repair.js';
import {
  compile,
  enforcement,
  governance,
  listSchedules,
  RECONCILE_CLUSTER_JOB,
  stateRef,
  type ClusterOverride,
  type HibernationSchedule,
} from '../services/schedules/index.js';
import {
  clusterEdgeDropped,
  graceEdge,
  lapseJob,
  overrideEdge,
  recordMissed,
  scheduleCatchUp,
  sweepJob,
  type ClusterEdge,
  type ScheduleScanDeps,
} from './schedule-scan.js';
import type { ClusterDeployment } from '../hive/types.js';

/** The shared service ports and where Beekeeper's own resources live. */
export type ScheduleTimersDeps = ScheduleScanDeps;

export interface ScheduleTimers {
  /** Names of schedules with an armed timer and when it fires (for tests and /debug). */
  armed(): Record<string, string>;
  close(): void;
}

export function startScheduleTimers(deps: ScheduleTimersDeps): ScheduleTimers {
  const timers = new Map<string, { atMs: number; cancel: () => void }>();
  const clusterTimers = new Map<string, { atMs: number; cancel: () => void }>();
  const enforcedGeneration = new Map<string, string>();
  let closed = false;

  // A failed enqueue (Redis down) is not lost: the next resync finds the edge unswept and enqueues it.
  const enqueue = (job: FixedJob) =>
    enqueueFixed(deps.queue, job).catch((err: unknown) =>
      deps.log.error({ err, type: job.type, jobId: job.jobId }, 'cannot enqueue scheduled job'),
    );

  const ours = (obj: KubeObject, hub: string) =>
    hub === deps.stateHub && obj.metadata.namespace === deps.stateNamespace;

  const catchUp = (cr: HibernationSchedule, now: number) => {
    const owed = scheduleCatchUp(deps, cr, now);
    if (owed?.kind === 'sweep') void enqueue(owed.job);
    if (owed?.kind === 'missed')
      void recordMissed(deps, cr, owed, now).catch((err: unknown) =>
        deps.log.warn({ err, schedule: cr.metadata.name }, 'cannot record missed edge'),
      );
  };

  const arm = (cr: HibernationSchedule) => {
    const name = cr.metadata.name;
    timers.get(name)?.cancel();
    timers.delete(name);
    if (closed) return;
    let next;
    try {
      const now = deps.clock.now();
      catchUp(cr, now);
      next = compile(cr).nextEdge(now);
    } catch (err) {
      // A schedule written straight to Kubernetes may be invalid; it is reported, never half-run.
      deps.log.warn({ err, schedule: name }, 'schedule cannot be evaluated');
      return;
    }
    if (!next) return;
    const atMs = Date.parse(next.at);
    const cancel = deps.clock.at(atMs, () => {
      timers.delete(name);
      const current = deps.store.cached<HibernationSchedule>('HibernationSchedule', stateRef(deps, name)) ?? cr;
      void enqueue(sweepJob(deps, current, next, 'edge'));
      arm(current);
    });
    timers.set(name, { atMs, cancel });
    // A schedule that enforces (new, changed, or seen for the first time) brings its clusters in line now; at
    // edges the sweep does that, so status-only changes do not trigger a scan.
    const seen = `${cr.metadata.uid}/${cr.metadata.generation}`;
    if (cr.spec.enforce && enforcedGeneration.get(name) !== seen) {
      enforcedGeneration.set(name, seen);
      for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment')) enforce(hub, object);
    }
    const shown = cr.status?.nextEdge;
    if (shown?.at !== next.at || shown.action !== next.action) {
      const nextEdge = { at: next.at, local: next.local, action: next.action, reason: next.reason };
      void deps.store
        .mergePatch(
          'HibernationSchedule',
          stateRef(deps, name),
          { status: { nextEdge, observedGeneration: cr.metadata.generation } },
          { subresource: 'status' },
        )
        .catch((err: unknown) => deps.log.warn({ err, schedule: name }, 'cannot record next edge'));
    }
  };

  /** A cluster-specific edge: fired now when it already lapsed (the reconcile job refuses edges past the deadline). */
  const armClusterEdge = (e: ClusterEdge) => {
    const existing = clusterTimers.get(e.key);
    if (existing?.atMs === e.atMs) return;
    existing?.cancel();
    const fire = () => {
      clusterTimers.delete(e.key);
      // A clock jump fires every edge it passes at once (a day of install grace periods: thousands of jobs and
      // PATCHes landing on the next sweep). Those beyond the deadline are dropped as a start drops them, unlogged,
      // and so is a grace period ending where the schedule says Running (nothing to do, nothing to record).
      if (clusterEdgeDropped(deps, e, deps.clock.now())) return;
      void enqueue(lapseJob(e));
    };
    if (e.atMs <= deps.clock.now()) return fire();
    clusterTimers.set(e.key, { atMs: e.atMs, cancel: deps.clock.at(e.atMs, fire) });
  };

  const cancelClusterEdge = (key: string) => {
    clusterTimers.get(key)?.cancel();
    clusterTimers.delete(key);
  };

  const onOverride = (o: ClusterOverride, deleted: boolean) => {
    const edge = deleted ? undefined : overrideEdge(deps, o, deps.clock.now());
    if (edge) armClusterEdge(edge);
    else if (deleted || o.spec?.type !== 'keepAwake') cancelClusterEdge(`override/${o.metadata.name}`);
  };

  /**
   * enforce: true re-applies continuously: a change that moves a cluster off the state the schedule says is undone,
   * where a run now would act (the planner's decision: overrides and the install grace period hold it too).
   */
  const enforce = (hub: string, cd: ClusterDeployment) => {
    const gov = governance(deps, listSchedules(deps), hub, cd);
    if (!gov.schedule) return;
    // The job decides again (the cluster may have changed meanwhile); this only spares it when nothing is to do.
    let decision;
    try {
      decision = enforcement(deps, gov.schedule, hub, cd, deps.clock.now());
    } catch {
      // A schedule written straight to Kubernetes may be invalid (an unknown time zone): arm() reported it once;
      // it decides nothing, and every change to one of its clusters must not throw (at start-up that stopped the role).
      return;
    }
    if (decision?.kind !== 'act') return;
    const job = jobOf(RECONCILE_CLUSTER_JOB, {
      hub,
      namespace: cd.metadata.namespace ?? '',
      name: cd.metadata.name,
      cause: 'enforce',
    });
    void deps.queue
      .enqueue(job, {
        dedupId: jobIds.enforce({ hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name }),
        hub,
        target: { kind: 'ClusterDeployment', hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name },
      })
      .catch((err: unknown) => deps.log.error({ err, hub, name: cd.metadata.name }, 'cannot enqueue enforce job'));
  };

  const onCluster = (hub: string, cd: ClusterDeployment, deleted: boolean) => {
    if (deleted) return cancelClusterEdge(`grace/${hub}/${cd.metadata.namespace}/${cd.metadata.name}`);
    const edge = graceEdge(deps, hub, cd, deps.clock.now());
    if (edge) armClusterEdge(edge);
    enforce(hub, cd);
  };
  const unsubscribe = [
    deps.store.onChange<HibernationSchedule>('HibernationSchedule', (hub, type, obj) => {
      if (!ours(obj, hub)) return;
      if (type === 'DELETED') {
        timers.get(obj.metadata.name)?.cancel();
        timers.delete(obj.metadata.name);
      } else arm(obj);
    }),
    deps.store.onChange<ClusterOverride>('ClusterOverride', (hub, type, obj) => {
      if (ours(obj, hub)) onOverride(obj, type === 'DELETED');
    }),
    deps.store.onChange<ClusterDeployment>('ClusterDeployment', (hub, type, obj) =>
      onCluster(hub, obj, type === 'DELETED'),
    ),
  ];

  for (const cr of listSchedules(deps)) arm(cr);
  for (const { object } of deps.store.cachedList<ClusterOverride>('ClusterOverride', {
    hub: deps.stateHub,
    namespace: deps.stateNamespace,
  }))
    onOverride(object, false);
  for (const { hub, object } of deps.store.cachedList<ClusterDeployment>('ClusterDeployment'))
    onCluster(hub, object, false);

  return {
    armed: () => Object.fromEntries([...timers].map(([name, t]) => [name, new Date(t.atMs).toISOString()])),
    close() {
      closed = true;
      for (const off of unsubscribe) off();
      for (const t of [...timers.values(), ...clusterTimers.values()]) t.cancel();
      timers.clear();
      clusterTimers.clear();
    },
  };
}
