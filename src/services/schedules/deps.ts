// What the schedule use cases need: the ports, and where Beekeeper keeps its own resources.
import type { Operations } from '../operations/operations.js';
import type { ObjectRef, ServiceDeps, StateLocation } from '../ports.js';
import type { TeamScope } from '../team-scope.js';

export type { ServiceLog } from '../ports.js';

/** The shared ports plus the state location (HibernationSchedules, ClusterOverrides live there). */
export type ScheduleServiceDeps = ServiceDeps &
  StateLocation &
  TeamScope & {
    operations: Operations;
    /** PATCHes a sweep keeps in flight per hub (config `sweepConcurrency`); DEFAULT_SWEEP_CONCURRENCY when absent. */
    sweepConcurrency?: (hub: string) => number;
  };

/** The default of config `sweepConcurrency` (src/config/schema.ts), for deps built without a config. */
export const DEFAULT_SWEEP_CONCURRENCY = 32;

export const stateRef = (deps: StateLocation, name: string): ObjectRef => ({
  hub: deps.stateHub,
  namespace: deps.stateNamespace,
  name,
});
