// Hive's controller expectations (pkg/controller/utils, ExpectationsInterface, as in Kubernetes' ReplicaSet
// controller): after creating an object, a controller decides nothing more for its owner until its informer has
// seen the object, so a cache that lags behind the controller's own write cannot make it create a second one. An
// expectation lapses after five minutes (ExpectationsTimeout), so a lost watch event cannot stall the owner forever.
const TTL_MS = 5 * 60_000;

export interface Expectations {
  /** Before creating `name` for owner `key`. */
  expect(key: string, name: string): void;
  /** The create failed: nothing to wait for. */
  forget(key: string): void;
  /** Whether the controller may decide for `key`: nothing awaited, or `seen` says the awaited object has arrived. */
  satisfied(key: string, seen: (name: string) => boolean): boolean;
}

export function createExpectations(now: () => number): Expectations {
  const pending = new Map<string, { name: string; at: number }>();
  return {
    expect: (key, name) => void pending.set(key, { name, at: now() }),
    forget: (key) => void pending.delete(key),
    satisfied(key, seen) {
      const p = pending.get(key);
      if (!p) return true;
      if (!seen(p.name) && now() - p.at < TTL_MS) return false;
      pending.delete(key);
      return true;
    },
  };
}
