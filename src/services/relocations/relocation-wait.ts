// How the relocation job waits for Hive: woken by every informer change of the kinds a move shows in (both hubs'
// ClusterDeployments, the ClusterRelocate, the Relocation itself for an abort), with a bounded poll as a backstop
// for what no informer event announces (a Secret copied to the destination is not a cached kind). Every wait ends:
// `undefined` when `timeoutMs` of the clock's time pass first.
import type { CachedKind, Clock, HiveStore } from '../ports.js';

const WAKE_KINDS: readonly CachedKind[] = ['ClusterDeployment', 'ClusterRelocate', 'Relocation'];

export interface WaitDeps {
  store: HiveStore;
  clock: Clock;
  pollMs: number;
  signal?: AbortSignal;
}

export function waitUntil<R>(
  deps: WaitDeps,
  check: () => R | undefined | Promise<R | undefined>,
  timeoutMs: number,
): Promise<R | undefined> {
  const deadline = deps.clock.now() + timeoutMs;
  return new Promise<R | undefined>((resolve, reject) => {
    let done = false;
    let running = false;
    let again = false;
    const cleanups: Array<() => void> = [];
    const finish = (value: R | undefined, err?: unknown) => {
      if (done) return;
      done = true;
      for (const off of cleanups) off();
      if (err !== undefined) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(value);
    };
    // One evaluation at a time; events arriving meanwhile ask for one more, not one each.
    const evaluate = async () => {
      if (done) return;
      if (running) return void (again = true);
      running = true;
      try {
        do {
          again = false;
          const value = await check();
          if (value !== undefined) return finish(value);
        } while (again && !done);
      } catch (err) {
        finish(undefined, err);
      } finally {
        running = false;
      }
    };
    let cancel: (() => void) | undefined;
    const arm = () => {
      cancel = deps.clock.at(Math.min(deps.clock.now() + deps.pollMs, deadline), () => {
        void evaluate().then(() => {
          if (done) return;
          if (deps.clock.now() >= deadline) finish(undefined);
          else arm();
        });
      });
    };
    cleanups.push(() => cancel?.());
    for (const kind of WAKE_KINDS) cleanups.push(deps.store.onChange(kind, () => void evaluate()));
    if (deps.signal) {
      const signal = deps.signal;
      if (signal.aborted) return finish(undefined, signal.reason ?? new Error('aborted'));
      const onAbort = () => finish(undefined, signal.reason ?? new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    arm();
    void evaluate();
  });
}
