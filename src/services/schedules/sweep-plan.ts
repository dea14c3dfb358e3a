// What a sweep does to each cluster, decided from the informer cache by the one planner (power-planner.ts): act
// (the sweep job's pool), skip with a reason, or leave alone (not this schedule's cluster). Dry runs, real runs, edge
// and catch-up sweeps and the preview all ask it, so they agree.
import { planAt, type Consumption, type PlanInstant, type PowerAction } from '../../hive/schedule/index.js';
import { plannerContext, scheduleClusters } from './cluster-schedule.js';
import type { ScheduleServiceDeps } from './deps.js';
import type { HibernationSchedule } from './schedule-resource.js';
import type { NamespacedRef } from '../ports.js';

export type SweepMode = 'edge' | 'catch-up' | 'manual';

export type Decision =
  | { kind: 'act'; cluster: NamespacedRef; action: PowerAction; reason: string }
  | {
      kind: 'skip';
      cluster: NamespacedRef;
      action: PowerAction;
      reason: string;
      message: string;
      consumes?: Consumption;
    };

/** An edge sweep acts on its edge; catch-up and manual runs apply the state the schedule says now, never a stale edge. */
export function sweepInstant(
  edge: { atMs: number; action: PowerAction; reason: string },
  mode: SweepMode,
  nowMs: number,
): PlanInstant {
  return mode === 'edge' ? { kind: 'edge', ...edge } : { kind: 'run', atMs: nowMs };
}

export function planSweep(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  schedule: HibernationSchedule,
  all: HibernationSchedule[],
  edge: { atMs: number; action: PowerAction; reason: string },
  mode: SweepMode,
  nowMs: number,
): Decision[] {
  const at = sweepInstant(edge, mode, nowMs);
  return planAt(plannerContext(schedule), scheduleClusters(deps, schedule, all), at).map(({ ref, ...d }) =>
    d.kind === 'act' && at.kind === 'run'
      ? { ...d, cluster: ref, reason: `${mode}: ${d.reason}` }
      : { ...d, cluster: ref },
  );
}
