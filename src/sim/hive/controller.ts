import { createWorkQueue, type ReconcileResult, type WorkQueue } from '../client/index.js';
import type { HiveContext } from './context.js';

export interface Controller {
  name: string;
  queue: WorkQueue;
}

/** Wraps a reconcile function in a work queue whose errors go to the hub log. */
export function startController(
  ctx: HiveContext,
  name: string,
  reconcile: (key: string) => Promise<ReconcileResult | void>,
  concurrency = 4,
): Controller {
  const queue = createWorkQueue({
    clock: ctx.clock,
    concurrency,
    reconcile,
    // Started by startHiveControllers once every informer has synced (controller-runtime's WaitForCacheSync):
    // a reconcile against a half-filled cache takes missing objects for deleted ones.
    paused: true,
    onError: (key, err) => ctx.log({ hub: ctx.hub, controller: name, key, err: String(err) }, 'reconcile failed'),
  });
  return { name, queue };
}

/** The smallest defined requeue, for a reconcile that has several timers running. */
export function soonest(...results: Array<ReconcileResult | void | undefined>): ReconcileResult | undefined {
  const times = results.map((r) => r?.requeueAfter).filter((t): t is number => t !== undefined);
  return times.length ? { requeueAfter: Math.max(0, Math.min(...times)) } : undefined;
}

/**
 * Remembers when this process put an object into a state, so simulated steps can last exactly their duration
 * (API timestamps only have whole seconds). A state it did not see begin starts counting now.
 */
export function createStopwatch(now: () => number) {
  const marks = new Map<string, { state: string; at: number }>();
  return {
    mark(id: string, state: string) {
      marks.set(id, { state, at: now() });
    },
    elapsed(id: string, state: string): number {
      const m = marks.get(id);
      if (m && m.state === state) return now() - m.at;
      marks.set(id, { state, at: now() });
      return 0;
    },
    forget(id: string) {
      marks.delete(id);
    },
  };
}
export type Stopwatch = ReturnType<typeof createStopwatch>;
