import type { Clock, HiveStore, JobQueue } from '../ports.js';

export interface ServiceLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ExpiryServiceDeps {
  store: HiveStore;
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
  stateHub: string;
  stateNamespace: string;
  webhookTimeoutMs?: number;
}
