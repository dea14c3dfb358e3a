// What the schedule use cases need: the ports, and where Beekeeper keeps its own resources.
import type { Clock, HiveStore, JobQueue, ObjectRef } from '../ports.js';

export interface ServiceLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ScheduleServiceDeps {
  store: HiveStore;
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
  /** Hub and namespace holding HibernationSchedules, ClusterOverrides, ExpiryPolicies, WebhookEndpoints. */
  stateHub: string;
  stateNamespace: string;
}

export const stateRef = (deps: Pick<ScheduleServiceDeps, 'stateHub' | 'stateNamespace'>, name: string): ObjectRef => ({
  hub: deps.stateHub,
  namespace: deps.stateNamespace,
  name,
});

export const BEEKEEPER_API_VERSION = 'beekeeper.io/v1alpha1';

/** Job ids allow letters, digits, `.`, `_`, `-`; Kubernetes names are already within that set. */
export const idPart = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
