// Callers waiting for a hub's turn (a slot in the request gate, a token of the rate cap), served interactive first,
// background after, in arrival order within a class (work-class.ts). A caller whose AbortSignal fires leaves the
// queue at once, so a cancelled request never takes a turn meant for someone still waiting.
import type { WorkClass } from '../work-class.js';

export interface ClassQueue {
  /** Resolves when `admitNext` reaches this caller; rejects with the signal's reason if it aborts first. */
  push(cls: WorkClass, signal?: AbortSignal): Promise<void>;
  /** Lets the next waiter go (interactive before background); false when none waits. */
  admitNext(): boolean;
  /** How many callers wait. */
  size(): number;
}

export function createClassQueue(): ClassQueue {
  const waiting: Record<WorkClass, (() => void)[]> = { interactive: [], background: [] };
  return {
    push: (cls, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        const queue = waiting[cls];
        const onAbort = () => {
          const i = queue.indexOf(go);
          if (i >= 0) queue.splice(i, 1);
          reject(signal?.reason);
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(go);
      }),
    admitNext() {
      const go = waiting.interactive.shift() ?? waiting.background.shift();
      go?.();
      return go !== undefined;
    },
    size: () => waiting.interactive.length + waiting.background.length,
  };
}
