// What a system has started, closed in reverse order of creation: HTTP, timers, workers, informers, queues, Redis,
// simulator. Workers stop before the informers because an active job waiting on Hive is woken by informer events.
import type { Logger } from '../logger.js';

/** Registers what to close, in creation order. */
export type Defer = (name: string, close: () => Promise<unknown>) => void;

export function createClosers(log: Logger): { defer: Defer; close(): Promise<void> } {
  const closers: Array<[string, () => Promise<unknown>]> = [];
  return {
    defer: (name, close) => void closers.push([name, close]),
    async close() {
      for (const [name, fn] of closers.splice(0).reverse()) {
        await fn().catch((err) => log.warn({ err, component: name }, 'error while closing'));
      }
    },
  };
}
