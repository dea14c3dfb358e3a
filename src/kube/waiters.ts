// Jobs that wait for Hive are promises woken by informer events, never polls (ARCHITECTURE.md "Watch, don't poll").
import { sleep, type Clock } from '../clock.js';
import { Unavailable } from '../hive/errors.js';
import type { CachedKind, ChangeType, KubeObject, ObjectRef } from '../services/ports.js';

type Waiter = (obj: KubeObject | undefined) => void;
type ChangeListener = (hub: string, type: ChangeType, obj: KubeObject) => void;

const key = (kind: string, hub: string, namespace: string | undefined, name: string) =>
  `${kind}\u0000${hub}\u0000${namespace ?? ''}\u0000${name}`;

export interface Waiters {
  /** Feed one informer event to waiters and change listeners. */
  dispatch(kind: CachedKind, hub: string, type: ChangeType, obj: KubeObject): void;
  onChange(kind: CachedKind, listener: ChangeListener): () => void;
  waitFor<R>(
    kind: CachedKind,
    ref: ObjectRef,
    current: () => KubeObject | undefined,
    test: (obj: KubeObject | undefined) => R | undefined,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<R>;
}

export function createWaiters({
  clock,
  log,
}: {
  clock: Clock;
  log: { error(obj: object, msg?: string): void };
}): Waiters {
  const byObject = new Map<string, Set<Waiter>>();
  const byKind = new Map<CachedKind, Set<ChangeListener>>();

  return {
    dispatch(kind, hub, type, obj) {
      for (const listener of [...(byKind.get(kind) ?? [])]) {
        try {
          listener(hub, type, obj);
        } catch (err) {
          log.error({ err, kind, hub }, 'change listener threw');
        }
      }
      const waiters = byObject.get(key(kind, hub, obj.metadata.namespace, obj.metadata.name));
      for (const w of [...(waiters ?? [])]) w(type === 'DELETED' ? undefined : obj);
    },

    onChange(kind, listener) {
      let set = byKind.get(kind);
      if (!set) byKind.set(kind, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },

    waitFor(kind, ref, current, test, { timeoutMs, signal }) {
      return new Promise((resolve, reject) => {
        const k = key(kind, ref.hub, ref.namespace, ref.name);
        let done = false;
        const timeout = new AbortController();
        const finish = (settle: () => void) => {
          if (done) return;
          done = true;
          const set = byObject.get(k);
          set?.delete(check);
          if (set?.size === 0) byObject.delete(k);
          timeout.abort();
          signal?.removeEventListener('abort', onAbort);
          settle();
        };
        // A test may throw to end the wait with that error (e.g. Hive reports Unsupported).
        const check: Waiter = (obj) => {
          let result: ReturnType<typeof test>;
          try {
            result = test(obj);
          } catch (err) {
            return finish(() => reject(err));
          }
          if (result !== undefined) finish(() => resolve(result));
        };
        const onAbort = () =>
          finish(() =>
            reject(new Unavailable(`stopped waiting for ${kind} ${ref.hub}/${ref.namespace ?? ''}/${ref.name}`)),
          );
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        let set = byObject.get(k);
        if (!set) byObject.set(k, (set = new Set()));
        set.add(check);
        sleep(clock, timeoutMs, timeout.signal).then(
          () =>
            finish(() =>
              reject(
                new Unavailable(
                  `timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${kind} ${ref.namespace ?? ''}/${ref.name} on hub ${ref.hub}`,
                ),
              ),
            ),
          () => undefined,
        );
        check(current());
      });
    },
  };
}
