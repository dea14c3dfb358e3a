// The level-triggered safety net of the scheduler role. Timers are edge-triggered: they enqueue once, when
// something falls due, and an enqueue Redis refused or a job a flush took is gone for good. Every interval (and at
// once when Redis answers again after an outage) the resync asks its repairers to compare what should have
// happened with what Kubernetes shows and redo what is missing; repairs are idempotent (fixed job ids, durable
// records in Kubernetes), so a second replica or a late run changes nothing.
//
// node-cron fires the slots; a RunCoordinator over Redis hands each slot to one replica (`<prefix>:resync:<slot>`).
// Repairs use the injected clock. Each repair is counted (beekeeper_resync_repairs_total{repair}), leaves an Event
// on the object repaired, and each run writes one log line and the `beekeeper-resync` ConfigMap (lastResync).
import { hostname } from 'node:os';
import cron, { type RunCoordinator, type ScheduledTask } from 'node-cron';
import type { Clock } from '../clock.js';
import { intervalCron } from '../config/interval-cron.js';
import type { HiveStore, ServiceLog, StateLocation } from '../services/ports.js';
import type { Repair, Repairer } from '../services/resync/repair.js';
import { writeResyncRecord, type ResyncRecord } from '../services/resync/resync-record.js';
import { runAs } from '../work-class.js';

export interface ResyncDeps extends StateLocation {
  store: HiveStore;
  clock: Clock;
  log: ServiceLog;
  intervalSeconds: number;
  /** Hands each slot to one replica (src/redis/run-coordinator.ts). */
  coordinator: RunCoordinator;
  /** Subscribes to Redis answering again after an outage; returns the unsubscribe function. */
  onRedisBack?: (fn: () => void) => () => void;
  repairers: readonly Repairer[];
  repairs?: { inc(labels: { repair: string }, value?: number): void };
  /** Names this replica in the record; the host name by default. */
  instance?: string;
}

export interface Resync {
  /**
   * Run a slot now, through the coordinator as a scheduled run would: by default the slot the clock is in. The record
   * of the run, or undefined when another replica already had the slot or Redis is down.
   */
  runOnce(slot?: string): Promise<ResyncRecord | undefined>;
  /** Called with the record of each run this replica finishes, whatever triggered it. Returns the unsubscribe. */
  onRun(listener: (record: ResyncRecord) => void): () => void;
  close(): Promise<void>;
}

/** Failures kept per repairer and run (the count is always complete). */
const KEEP_FAILURES = 3;

export function startResync(deps: ResyncDeps): Resync {
  const pattern = intervalCron(deps.intervalSeconds);
  if (!pattern)
    throw new Error(
      `resync interval ${deps.intervalSeconds}s has no cron pattern (config validation lets none through)`,
    );
  const intervalMs = deps.intervalSeconds * 1000;
  // Longer than any slot can be late, so a replica whose timer fires late still finds the slot taken.
  const leaseMs = Math.max(2 * intervalMs, 10 * 60_000);
  const instance = deps.instance ?? hostname();
  const running = new Set<Promise<unknown>>();
  const listeners = new Set<(record: ResyncRecord) => void>();
  let closed = false;

  const elect = async (key: string): Promise<boolean> => {
    try {
      return await deps.coordinator.shouldRun(key, leaseMs);
    } catch (err) {
      deps.log.warn(
        { slot: key, err: (err as Error).message },
        'resync skipped: Redis does not answer; it runs again once Redis is back',
      );
      return false;
    }
  };

  const recordRepair = async (slot: string, r: Repair, label: string) => {
    deps.repairs?.inc({ repair: label });
    await deps.store.recordEvent(r.kind, r.ref, {
      type: 'Normal',
      reason: 'ResyncRepaired',
      action: 'Resync',
      message: `Resync: ${r.message}`,
      // One Event per slot and repair, however often the run is retried.
      key: `resync/${slot}/${label}`,
    });
  };

  const run = async (slot: string, trigger: ResyncRecord['trigger']): Promise<ResyncRecord> => {
    const startedAt = deps.clock.now();
    const repairs: Record<string, number> = {};
    const failed: Record<string, string> = {};
    for (const repairer of deps.repairers) {
      const failures: string[] = [];
      let count = 0;
      const note = (err: unknown) => {
        count++;
        if (failures.length < KEEP_FAILURES) failures.push(err instanceof Error ? err.message : String(err));
      };
      try {
        for (const r of await repairer.repair({ nowMs: deps.clock.now(), slot, failed: note })) {
          const label = r.repair ?? repairer.name;
          repairs[label] = (repairs[label] ?? 0) + 1;
          await recordRepair(slot, r, label);
        }
      } catch (err) {
        note(err);
      }
      if (count > 0) failed[repairer.name] = `${count} failed: ${failures.join('; ')}`;
    }
    const record: ResyncRecord = {
      slot,
      trigger,
      startedAt: new Date(startedAt).toISOString(),
      finishedAt: new Date(deps.clock.now()).toISOString(),
      instance,
      repairs,
      ...(Object.keys(failed).length > 0 ? { failed } : {}),
    };
    const total = Object.values(repairs).reduce((a, b) => a + b, 0);
    const line = { slot, trigger, repairs, ...(record.failed ? { failed } : {}), ms: deps.clock.now() - startedAt };
    if (record.failed) deps.log.warn(line, `resync: ${total} repaired, some repairs failed; the next run tries again`);
    else deps.log.info(line, `resync: ${total} repaired`);
    await writeResyncRecord(deps, record).catch((err: unknown) =>
      deps.log.warn({ err: (err as Error).message }, 'cannot record the resync in its ConfigMap'),
    );
    for (const listener of listeners) listener(record);
    return record;
  };

  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => undefined);
    return p;
  };

  /** The start of the interval the clock is in: every replica names a slot alike. */
  const slotNow = () => new Date(Math.floor(deps.clock.now() / intervalMs) * intervalMs).toISOString();

  const runSlot = async (slot: string, trigger: ResyncRecord['trigger']) => {
    if (closed || !(await elect(`resync:${slot}`))) return undefined;
    return track(runAs('background', () => run(slot, trigger)));
  };

  const task: ScheduledTask = cron.schedule(
    pattern,
    (ctx) => track(runAs('background', () => run(ctx.date.toISOString(), 'schedule'))),
    {
      name: 'resync',
      // Slots of hours fall on the same instants on every replica, whatever its local zone (and match slotNow).
      timezone: 'Etc/UTC',
      noOverlap: true,
      distributed: true,
      // Through `elect`, so an unreachable Redis is one warning of ours rather than node-cron's console error.
      runCoordinator: { shouldRun: (key) => elect(key) },
      distributedLease: leaseMs,
      // A slot missed while the process was blocked is covered by the next one.
      suppressMissedWarning: true,
    },
  );

  // After an outage, straight away: whatever failed to enqueue meanwhile is owed now, not at the next slot.
  const stopWatching = deps.onRedisBack?.(() => {
    deps.log.info({}, 'Redis answers again: resync now');
    void runSlot(`recovery-${slotNow()}`, 'recovery').catch((err: unknown) =>
      deps.log.warn({ err }, 'resync after the outage failed'),
    );
  });

  return {
    runOnce: (slot = slotNow()) => runSlot(slot, 'manual'),
    onRun(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      stopWatching?.();
      await task.destroy();
      await Promise.allSettled([...running]);
    },
  };
}
