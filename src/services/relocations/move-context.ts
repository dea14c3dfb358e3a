// What the steps of one relocation run share: the ports, the relocation's hubs and id, its status writer and how
// long each wait for Hive may last.
import type { RelocationSpec } from '../../hive/resources/relocation.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { Clock, HiveStore, NamespacedRef, ServiceLog, StateLocation } from '../ports.js';
import type { StatusWriter } from './relocation-status.js';
import { waitUntil } from './relocation-wait.js';

export interface MoveContext {
  store: HiveStore;
  clock: Clock;
  log: ServiceLog;
  state: StateLocation;
  id: string;
  spec: RelocationSpec;
  from: string;
  to: string;
  status: StatusWriter;
  /** Per cluster and wait, in the clock's time. */
  timeoutMs: number;
  pollMs: number;
  signal?: AbortSignal;
  /** spec.abort is set (read from the informer cache, so a wait sees it at once). */
  aborted(): boolean;
}

export const sourceRef = (m: MoveContext, c: { namespace: string; name: string }): NamespacedRef => ({
  hub: m.from,
  namespace: c.namespace,
  name: c.name,
});
export const destRef = (m: MoveContext, c: { namespace: string; name: string }): NamespacedRef => ({
  hub: m.to,
  namespace: c.namespace,
  name: c.name,
});
export const cachedCd = (m: MoveContext, ref: NamespacedRef) =>
  m.store.cached<ClusterDeployment>('ClusterDeployment', ref);

export const now = (m: MoveContext) => new Date(m.clock.now()).toISOString();

export function waitFor<R>(
  m: MoveContext,
  check: () => R | undefined | Promise<R | undefined>,
  timeoutMs = m.timeoutMs,
) {
  return waitUntil(
    { store: m.store, clock: m.clock, pollMs: m.pollMs, ...(m.signal ? { signal: m.signal } : {}) },
    check,
    timeoutMs,
  );
}
