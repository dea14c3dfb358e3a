import type { Clock } from '../../clock.js';
import { isConflict } from './errors.js';

export interface ReconcileResult {
  /** Reconcile this key again after so many ms of simulated time (Hive's RequeueAfter). */
  requeueAfter?: number;
}

export type Reconcile = (key: string) => Promise<ReconcileResult | void>;

export interface WorkQueue {
  add(key: string): void;
  addAfter(key: string, ms: number): void;
  /** Resolves when nothing is queued or running (handy in tests and on shutdown). */
  idle(): Promise<void>;
  /** Begins processing a queue created with `paused: true`; keys added before wait until then. */
  start(): void;
  stop(): void;
}

/**
 * A level-triggered work queue in the style of client-go: a key is never processed twice at once, adding a key
 * that is already queued is a no-op, and a key added while it runs is processed again afterwards. Failures are
 * retried with backoff; a write conflict (409) is retried at once because the cache will catch up.
 */
export function createWorkQueue(opts: {
  clock: Clock;
  reconcile: Reconcile;
  concurrency?: number;
  onError?: (key: string, err: unknown) => void;
  /** Queue keys but process none until start(): controller-runtime starts workers only once caches have synced. */
  paused?: boolean;
}): WorkQueue {
  const { clock, reconcile } = opts;
  const concurrency = opts.concurrency ?? 4;
  const queue: string[] = [];
  const queued = new Set<string>();
  const running = new Set<string>();
  const dirty = new Set<string>();
  const timers = new Map<string, { at: number; cancel: () => void }>();
  const backoffs = new Set<NodeJS.Timeout>();
  const failures = new Map<string, number>();
  let stopped = false;
  let paused = opts.paused ?? false;
  let idleWaiters: Array<() => void> = [];

  const checkIdle = () => {
    if (queue.length === 0 && running.size === 0) {
      const w = idleWaiters;
      idleWaiters = [];
      w.forEach((f) => f());
    }
  };

  const add = (key: string) => {
    if (stopped) return;
    if (running.has(key)) return void dirty.add(key);
    if (queued.has(key)) return;
    queued.add(key);
    queue.push(key);
    pump();
  };

  const addAfter = (key: string, ms: number) => {
    if (stopped) return;
    if (ms <= 0) return add(key);
    const at = clock.now() + ms;
    const existing = timers.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const cancel = clock.at(at, () => {
      timers.delete(key);
      add(key);
    });
    timers.set(key, { at, cancel });
  };

  const pump = () => {
    while (!stopped && !paused && running.size < concurrency && queue.length > 0) {
      const key = queue.shift()!;
      queued.delete(key);
      running.add(key);
      void run(key);
    }
  };

  async function run(key: string) {
    try {
      const result = await reconcile(key);
      failures.delete(key);
      if (result?.requeueAfter !== undefined) addAfter(key, result.requeueAfter);
    } catch (err) {
      const n = (failures.get(key) ?? 0) + 1;
      failures.set(key, n);
      if (!isConflict(err)) opts.onError?.(key, err);
      // Backoff in real milliseconds: this is about the API, not about simulated Hive time.
      const delay = isConflict(err) ? 5 : Math.min(50 * 2 ** Math.min(n, 8), 5000);
      // Kept (not unref'd) until it fires or stop(): a failed reconcile is work still to do.
      const t = setTimeout(() => {
        backoffs.delete(t);
        add(key);
      }, delay);
      backoffs.add(t);
    } finally {
      running.delete(key);
      if (dirty.delete(key)) add(key);
      pump();
      checkIdle();
    }
  }

  return {
    add,
    addAfter,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      }),
    start() {
      paused = false;
      pump();
    },
    stop() {
      stopped = true;
      for (const t of timers.values()) t.cancel();
      timers.clear();
      for (const t of backoffs) clearTimeout(t);
      backoffs.clear();
      queue.length = 0;
      queued.clear();
      checkIdle();
    },
  };
}
