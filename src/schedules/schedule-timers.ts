// The scheduler role for hibernation schedules: timers on the injected clock that only enqueue. Every job id is
// derived from the schedule (or cluster) and the edge instant, so three replicas produce one job per edge; the
// schedule's status.lastSweep (written by the sweep) is the durable record that survives a Redis flush.
//
// Missed edges (the scheduler was down): at start and on every change, the latest edge at or before now is
// swept if no sweep recorded it and it is at most `catchUpDeadline` old; the sweep then applies the state the
// schedule says *now*. Older edges are recorded as missed and never replayed.
import { INSTALL_GRACE_MS, installedAtMs, type CdLike } from '../hive/schedule/index.js';
import type { JobTarget, KubeObject, ServiceDeps, StateLocation } from '../services/ports.js';
import {
  catchUpDeadlineMs,
  compile,
  deterministicId,
  enforcement,
  governance,
  listSchedules,
  RECONCILE_CLUSTER_JOB,
  stateRef,
  SWEEP_JOB,
  sweepJobId,
  toPowerOverride,
  type ClusterOverride,
  type HibernationSchedule,
  type SweepPayload,
} from '../services/schedules/index.js';

/** The shared service ports and where Beekeeper's own resources live. */
export type ScheduleTimersDeps = ServiceDeps & StateLocation;

/** An edge reached within this long is a normal firing, not a catch-up. */
const ON_TIME_MS = 60_000;

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

  const enqueue = (type: string, payload: Record<string, unknown>, jobId: string, hub: string, target?: JobTarget) =>
    deps.queue.enqueue(type, payload, { jobId, hub, ...(target ? { target } : {}) }).catch((err: unknown) => deps.log.error({ err, type, jobId }, 'cannot enqueue scheduled job'));

  const enqueueSweep = (cr: HibernationSchedule, edge: { at: string; action: 'hibernate' | 'resume'; reason: string }, mode: 'edge' | 'catch-up') => {
    const payload: SweepPayload = { schedule: cr.metadata.name, edgeAt: edge.at, action: edge.action, reason: edge.reason, mode };
    return enqueue(SWEEP_JOB, { ...payload }, sweepJobId(cr.metadata.name, Date.parse(edge.at)), deps.stateHub);
  };

  const ours = (obj: KubeObject, hub: string) => hub === deps.stateHub && obj.metadata.namespace === deps.stateNamespace;

  const catchUp = (cr: HibernationSchedule, now: number) => {
    const last = compile(cr).lastEdge(now);
    // An edge from before the schedule existed was never the schedule's to act on.
    if (!last || Date.parse(last.at) < Date.parse(cr.metadata.creationTimestamp ?? '')) return;
    const lastSweep = cr.status?.lastSweep;
    if (lastSweep?.finishedAt && lastSweep.edge >= last.at) return;
    const age = now - Date.parse(last.at);
    if (age <= catchUpDeadlineMs(cr)) {
      void enqueueSweep(cr, last, age <= ON_TIME_MS ? 'edge' : 'catch-up');
      return;
    }
    if (cr.status?.lastMissed?.edge === last.at) return;
    const reason = `missed by ${Math.round(age / 60_000)} minutes, beyond catchUpDeadline ${cr.spec.catchUpDeadline ?? '1h'}: not replayed; the next edge applies`;
    deps.log.warn({ schedule: cr.metadata.name, edge: last.at }, reason);
    void deps.store
      .mergePatch('HibernationSchedule', stateRef(deps, cr.metadata.name), { status: { lastMissed: { edge: last.at, action: last.action, reason, at: new Date(now).toISOString() } } }, { subresource: 'status' })
      .catch((err: unknown) => deps.log.warn({ err, schedule: cr.metadata.name }, 'cannot record missed edge'));
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
      void enqueueSweep(current, next, 'edge');
      arm(current);
    });
    timers.set(name, { atMs, cancel });
    // A schedule that enforces (new, changed, or seen for the first time) brings its clusters in line now; at
    // edges the sweep does that, so status-only changes do not trigger a scan.
    const seen = `${cr.metadata.uid}/${cr.metadata.generation}`;
    if (cr.spec.enforce && enforcedGeneration.get(name) !== seen) {
      enforcedGeneration.set(name, seen);
      for (const { hub, object } of deps.store.cachedList<CdLike & KubeObject>('ClusterDeployment')) enforce(hub, object);
    }
    const shown = cr.status?.nextEdge;
    if (shown?.at !== next.at || shown.action !== next.action) {
      const nextEdge = { at: next.at, local: next.local, action: next.action, reason: next.reason };
      void deps.store
        .mergePatch('HibernationSchedule', stateRef(deps, name), { status: { nextEdge, observedGeneration: cr.metadata.generation } }, { subresource: 'status' })
        .catch((err: unknown) => deps.log.warn({ err, schedule: name }, 'cannot record next edge'));
    }
  };

  /** How late a cluster-specific edge may still be applied: its schedule's catchUpDeadline. */
  const deadlineFor = (hub: string, cd: (CdLike & KubeObject) | undefined): number => {
    const schedule = cd && governance(listSchedules(deps), hub, cd).schedule;
    return schedule ? catchUpDeadlineMs(schedule) : 3_600_000;
  };

  /** A cluster-specific edge (an override or the install grace lapsing) at `atMs`. */
  const armClusterEdge = (key: string, hub: string, namespace: string, name: string, atMs: number, cause: string, override?: string) => {
    const existing = clusterTimers.get(key);
    if (existing?.atMs === atMs) return;
    existing?.cancel();
    const fire = () => {
      clusterTimers.delete(key);
      const edgeAt = new Date(atMs).toISOString();
      void enqueue(RECONCILE_CLUSTER_JOB, { hub, namespace, name, cause, edgeAt, ...(override ? { override } : {}) }, deterministicId('lapse', hub, namespace, name, atMs), hub, {
        kind: 'ClusterDeployment',
        hub,
        namespace,
        name,
      });
    };
    if (atMs <= deps.clock.now()) {
      // Lapsed while the scheduler was down: the reconcile job refuses edges older than the catchUpDeadline.
      fire();
      return;
    }
    clusterTimers.set(key, { atMs, cancel: deps.clock.at(atMs, fire) });
  };

  const onOverride = (o: ClusterOverride, deleted: boolean) => {
    const key = `override/${o.metadata.name}`;
    if (deleted || o.spec?.type !== 'keepAwake') {
      clusterTimers.get(key)?.cancel();
      clusterTimers.delete(key);
      return;
    }
    const p = toPowerOverride(o);
    const cd = deps.store.cached<CdLike & KubeObject>('ClusterDeployment', o.spec.cluster);
    if (p.untilMs === undefined || p.untilMs < deps.clock.now() - deadlineFor(o.spec.cluster.hub, cd)) return;
    armClusterEdge(key, o.spec.cluster.hub, o.spec.cluster.namespace, o.spec.cluster.name, p.untilMs, `keep-awake override ${o.metadata.name} lapsed`, o.metadata.name);
  };

  /**
   * enforce: true re-applies continuously: a change that moves a cluster off the state the schedule says is undone,
   * where a run now would act (the planner's decision: overrides and the install grace period hold it too).
   */
  const enforce = (hub: string, cd: CdLike & KubeObject) => {
    const gov = governance(listSchedules(deps), hub, cd);
    // The job decides again (the cluster may have changed meanwhile); this only spares it when nothing is to do.
    if (!gov.schedule || enforcement(deps, gov.schedule, hub, cd, deps.clock.now())?.kind !== 'act') return;
    void deps.queue
      .enqueue(RECONCILE_CLUSTER_JOB, { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name, cause: 'enforce' }, {
        dedupId: deterministicId('enforce', hub, cd.metadata.namespace ?? '', cd.metadata.name),
        hub,
        target: { kind: 'ClusterDeployment', hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name },
      })
      .catch((err: unknown) => deps.log.error({ err, hub, name: cd.metadata.name }, 'cannot enqueue enforce job'));
  };

  const onCluster = (hub: string, cd: CdLike & KubeObject, deleted: boolean) => {
    const key = `grace/${hub}/${cd.metadata.namespace}/${cd.metadata.name}`;
    if (deleted) {
      clusterTimers.get(key)?.cancel();
      clusterTimers.delete(key);
      return;
    }
    const now = deps.clock.now();
    const installed = installedAtMs(cd);
    if (installed !== undefined && installed + INSTALL_GRACE_MS > now - deadlineFor(hub, cd)) {
      armClusterEdge(key, hub, cd.metadata.namespace ?? '', cd.metadata.name, installed + INSTALL_GRACE_MS, 'install grace period lapsed');
    }
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
    deps.store.onChange<CdLike & KubeObject>('ClusterDeployment', (hub, type, obj) => onCluster(hub, obj, type === 'DELETED')),
  ];

  for (const cr of listSchedules(deps)) arm(cr);
  for (const { object } of deps.store.cachedList<ClusterOverride>('ClusterOverride', { hub: deps.stateHub, namespace: deps.stateNamespace })) onOverride(object, false);
  for (const { hub, object } of deps.store.cachedList<CdLike & KubeObject>('ClusterDeployment')) onCluster(hub, object, false);

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
