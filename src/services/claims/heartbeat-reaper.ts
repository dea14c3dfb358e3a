// Notices claims whose holder stopped heartbeating. Driven by claim events (a claim with a heartbeat timeout
// appears) and one clock timer per claim at its Lease deadline; when a timer fires the Lease is read live, and a
// renewal in the meantime (from any replica) just moves the timer. No polling loop. It runs with the timers
// (scheduler role) and only reports: the release itself is a job (`onExpired` enqueues it).
import { Unavailable } from '../../hive/errors.js';
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Clock, HiveStore, NamespacedRef } from '../ports.js';
import { createOutageLog } from '../resync/outage-log.js';
import { claimRefOf } from './claim-view.js';
import { heartbeatDeadline } from './heartbeat-lease.js';
import { refId } from '../../hive/object-ref.js';

export interface ReaperDeps {
  store: HiveStore;
  clock: Clock;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** The deadline passed without a heartbeat. Must be idempotent: every scheduler replica reports it. */
  onExpired(ref: NamespacedRef, deadlineMs: number, why: string): Promise<unknown>;
}

const RETRY_MS = 30_000;

export const heartbeatExpiredWhy = (claim: ClusterClaim) =>
  `no heartbeat for ${claim.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION]} (heartbeat timeout)`;

export function startHeartbeatReaper(deps: ReaperDeps): { close(): void } {
  const timers = new Map<string, () => void>();
  // Every claim's retry fails alike while Redis is down: logged once per outage (the resync releases what lapsed).
  const outage = createOutageLog(
    { info: (o, m) => deps.log.info(o, m), warn: (o, m) => deps.log.warn(o, m), error: (o, m) => deps.log.warn(o, m) },
    'heartbeat releases',
  );
  let closed = false;

  const cancel = (id: string) => {
    timers.get(id)?.();
    timers.delete(id);
  };

  const arm = (ref: NamespacedRef, atMs: number) => {
    const id = refId(ref);
    cancel(id);
    timers.set(
      id,
      deps.clock.at(atMs, () => void check(ref)),
    );
  };

  const check = async (ref: NamespacedRef) => {
    const id = refId(ref);
    // A placeholder while the live read runs, so claim events meanwhile start no second check.
    timers.set(id, () => undefined);
    const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref);
    if (closed || !claim || claim.metadata.deletionTimestamp) return void timers.delete(id);
    try {
      const deadline = await heartbeatDeadline(deps.store, ref, claim);
      if (deadline === undefined) return void timers.delete(id);
      if (deps.clock.now() < deadline) return arm(ref, deadline);
      const why = heartbeatExpiredWhy(claim);
      deps.log.info(
        { claim: id, deadline: new Date(deadline).toISOString() },
        'heartbeat timeout: releasing the claim',
      );
      timers.delete(id);
      await deps.onExpired(ref, deadline, why);
      outage.ok();
    } catch (err) {
      outage.failed(
        err instanceof Unavailable ? err : (err as Error).message,
        { claim: id },
        'heartbeat check failed; retrying',
      );
      if (!closed) arm(ref, deps.clock.now() + RETRY_MS);
    }
  };

  const consider = (hub: string, claim: ClusterClaim, deleted: boolean) => {
    const ref = claimRefOf(hub, claim);
    const id = refId(ref);
    if (deleted || claim.metadata.deletionTimestamp || !claim.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION])
      return cancel(id);
    if (!timers.has(id)) void check(ref);
  };

  const unsubscribe = deps.store.onChange<ClusterClaim>('ClusterClaim', (hub, type, claim) =>
    consider(hub, claim, type === 'DELETED'),
  );
  for (const { hub, object } of deps.store.cachedList<ClusterClaim>('ClusterClaim')) consider(hub, object, false);

  return {
    close() {
      closed = true;
      unsubscribe();
      for (const id of [...timers.keys()]) cancel(id);
    },
  };
}
