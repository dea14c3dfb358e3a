// The bounded pool a sweep job works through its clusters with: one lane per hub, all hubs at once, each with
// `width(hub)` workers (config sweepConcurrency). A lane holds the hub's clusters and a queue of later tasks (the
// audit Events, override status): a worker takes a later task only once every cluster of EVERY hub has been
// answered, so no Event competes with a patch of the sweep (for the worker's CPU, for a hub's window, for a server
// several hubs share), and every later task is done before the pool resolves (a worker that queues one loops back
// and finds it).
//
// The workers' waits (a Conflict's or a 429's back-off in sweep-cluster.ts) listen for an abort on the pool's own
// signal, which follows the job's through one listener, removed when the pool is done. On the job's signal itself,
// every worker waiting at once added its own (up to width × hubs: 96 at the defaults on 3 hubs), and Node warned
// past 10 (MaxListenersExceededWarning in bench/sweep-vs-loops); the pool's signal allows one per worker.
import { setMaxListeners } from 'node:events';

export interface PoolLane<T> {
  items: readonly T[];
  later: Array<() => Promise<void>>;
}

export interface HubPool {
  /** Queue a task behind the hub's items (created empty if the hub has none). */
  later(hub: string, task: () => Promise<void>): void;
  /** Resolves when every item and every later task of every hub is done; rejects when `signal` aborts. */
  run(): Promise<void>;
}

export function createHubPool<T>(opts: {
  items: ReadonlyMap<string, readonly T[]>;
  width: (hub: string) => number;
  /** `signal` aborts with the job's: what a worker's waits listen on. */
  work: (item: T, hub: string, signal: AbortSignal) => Promise<void>;
  signal: AbortSignal;
}): HubPool {
  const lanes = new Map<string, PoolLane<T>>();
  for (const [hub, items] of opts.items) lanes.set(hub, { items, later: [] });
  const lane = (hub: string) => {
    let l = lanes.get(hub);
    if (!l) lanes.set(hub, (l = { items: [], later: [] }));
    return l;
  };

  // Every item of every lane answered: the later tasks may start.
  let unanswered = 0;
  for (const l of lanes.values()) unanswered += l.items.length;
  let release = () => {};
  const answered = unanswered === 0 ? Promise.resolve() : new Promise<void>((r) => (release = r));
  const stop = new AbortController();
  const signal = stop.signal;
  const follow = () => stop.abort(opts.signal.reason);
  // An abort leaves items unanswered: the workers waiting here wake and throw.
  signal.addEventListener('abort', () => release(), { once: true });

  async function drain(hub: string, l: PoolLane<T>, next: { item: number; later: number }): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      if (next.item < l.items.length) {
        try {
          await opts.work(l.items[next.item++]!, hub, signal);
        } finally {
          if (--unanswered === 0) release();
        }
        continue;
      }
      if (next.later < l.later.length) {
        await answered;
        signal.throwIfAborted();
        if (next.later >= l.later.length) continue;
        const task = l.later[next.later]!;
        l.later[next.later++] = done; // let the closure go
        await task();
        continue;
      }
      return;
    }
  }

  return {
    later: (hub, task) => void lane(hub).later.push(task),
    async run() {
      const widths = [...lanes].map(
        ([hub, l]) => [hub, l, Math.max(1, Math.min(opts.width(hub), l.items.length + l.later.length))] as const,
      );
      // One wait per worker at a time, and the `answered` release above.
      setMaxListeners(
        widths.reduce((n, [, , w]) => n + w, 1),
        signal,
      );
      if (opts.signal.aborted) follow();
      else opts.signal.addEventListener('abort', follow, { once: true });
      try {
        await Promise.all(
          widths.map(([hub, l, width]) => {
            const next = { item: 0, later: 0 };
            return Promise.all(Array.from({ length: width }, () => drain(hub, l, next)));
          }),
        );
      } finally {
        opts.signal.removeEventListener('abort', follow);
      }
    },
  };
}

const done = () => Promise.resolve();
