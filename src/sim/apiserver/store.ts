// The double's "etcd": one Map per storage table, one global resourceVersion counter and a bounded history of
// change events (etcd's revisions, for LISTs at an older resourceVersion, until compacted). Beside it, one watch
// cache per resource (storage/cacher/watch_cache.go): the last N events of that resource, which is what a watch
// resumes from. Compacting etcd does not touch the watch caches (golden 58); a watch older than a cache's window
// is 410 (golden 59). Stored objects are never mutated; each write stores a fresh object in wire order and its
// JSON, so LIST and watch fan-out concatenate pre-serialised strings instead of re-encoding.

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A stored object, its JSON, and (built on first LIST) the bytes of its list-item form. */
export interface StoredRecord {
  obj: any;
  json: string;
  item?: Buffer;
}

export interface StoreEvent {
  type: EventType;
  rv: number;
  storageKey: string;
  key: string;
  namespace: string;
  obj: any;
  json: string;
  prev?: any;
  /** Encoded watch lines per API view ("" = storage form), built on first use and shared by all watchers. */
  lines: Map<string, Buffer>;
}

export interface Table {
  records: Map<string, StoredRecord>;
  sorted?: string[];
}

export const objectKey = (namespace: string | undefined, name: string) => (namespace ? `${namespace}/${name}` : name);

/**
 * The object's key in etcd, as storage errors print it: /registry/<resource>/..., with the group in front for
 * custom resources and CRDs (the apiextensions server's prefix), not for built-in kinds.
 */
export function etcdKey(
  type: { group: string; resource: string; custom?: unknown },
  namespace: string | undefined,
  name: string,
): string {
  const prefix =
    type.custom || type.group === 'apiextensions.k8s.io' ? `${type.group}/${type.resource}` : type.resource;
  return `/registry/${prefix}/${objectKey(namespace, name)}`;
}

/** What a watch from a resourceVersion gets: the cached events after it, or the version it is too old for. */
export type WatchStart = { events: StoreEvent[] } | { tooOldFor: number };

export interface Store {
  currentRv(): number;
  /** etcd's compaction revision: LISTs at an older resourceVersion and older continue tokens get 410. */
  compactedRv(): number;
  table(storageKey: string): Table;
  get(storageKey: string, key: string): StoredRecord | undefined;
  /** Keys of a table in etcd order (sorted), cached until the next insert or delete. */
  sortedKeys(storageKey: string): string[];
  /** Stores `obj` under a fresh resourceVersion (written into obj.metadata) and emits ADDED or MODIFIED. */
  put(storageKey: string, key: string, obj: any): StoreEvent;
  /** Removes the object; the DELETED event carries its last state with a fresh resourceVersion. */
  remove(storageKey: string, key: string): StoreEvent | undefined;
  /** etcd events after `rv`, oldest first (callers check compactedRv first). */
  eventsSince(rv: number): StoreEvent[];
  /** The watch cache of one storage table, asked for the events after `rv` (GetAllEventsSinceThreadUnsafe). */
  watchFrom(storageKey: string, rv: number): WatchStart;
  subscribe(fn: (e: StoreEvent) => void): () => void;
  /** An etcd compaction at the current revision: history for LISTs goes, the watch caches keep their events. */
  compact(): void;
  /** The watch caches start over from a fresh LIST at the current revision, as after an API server restart. */
  restartWatchCaches(): void;
  /** A resource served from now on (a new CRD) gets its watch cache, from a LIST at the current revision. */
  startWatchCache(storageKey: string): void;
}

/**
 * One resource's watch cache: the resourceVersion of the LIST it started from and a window of its newest events,
 * events[start..] (a ring buffer upstream; here an array trimmed now and then).
 */
interface WatchCache {
  listRv: number;
  events: StoreEvent[];
  start: number;
  dropped: boolean;
}

export function createStore(opts: { historyLimit: number; watchCacheSize: number }): Store {
  let rv = 1;
  let compacted = 1;
  const tables = new Map<string, Table>();
  let history: StoreEvent[] = [];
  const caches = new Map<string, WatchCache>();
  const listeners = new Set<(e: StoreEvent) => void>();
  const cacheSize = Math.max(1, opts.watchCacheSize);

  // Every resource's cache starts from a LIST at the revision the caches (re)started at, or for a resource served
  // later, at the revision it started being served (startWatchCache). Nothing of it was written in between.
  let cachesStartedAt = rv;
  const cacheOf = (storageKey: string) => {
    let c = caches.get(storageKey);
    if (!c) caches.set(storageKey, (c = { listRv: cachesStartedAt, events: [], start: 0, dropped: false }));
    return c;
  };

  const table = (storageKey: string) => {
    let t = tables.get(storageKey);
    if (!t) tables.set(storageKey, (t = { records: new Map() }));
    return t;
  };

  const record = (e: StoreEvent) => {
    const cache = cacheOf(e.storageKey);
    cache.events.push(e);
    if (cache.events.length - cache.start > cacheSize) {
      cache.start += 1;
      cache.dropped = true;
    }
    if (cache.start > cacheSize) {
      cache.events = cache.events.slice(cache.start);
      cache.start = 0;
    }
    history.push(e);
    if (history.length > opts.historyLimit * 1.25) {
      const drop = history.length - opts.historyLimit;
      compacted = history[drop - 1]!.rv;
      history = history.slice(drop);
    }
    for (const fn of listeners) fn(e);
  };

  const namespaceOf = (obj: any) => obj?.metadata?.namespace ?? '';

  return {
    currentRv: () => rv,
    compactedRv: () => compacted,
    table,
    get: (storageKey, key) => tables.get(storageKey)?.records.get(key),
    sortedKeys(storageKey) {
      const t = table(storageKey);
      if (!t.sorted) t.sorted = [...t.records.keys()].sort();
      return t.sorted;
    },
    put(storageKey, key, obj) {
      const t = table(storageKey);
      const prev = t.records.get(key);
      rv += 1;
      obj.metadata.resourceVersion = String(rv);
      const json = JSON.stringify(obj);
      t.records.set(key, { obj, json });
      if (!prev) t.sorted = undefined;
      const e: StoreEvent = {
        type: prev ? 'MODIFIED' : 'ADDED',
        rv,
        storageKey,
        key,
        namespace: namespaceOf(obj),
        obj,
        json,
        prev: prev?.obj,
        lines: new Map(),
      };
      record(e);
      return e;
    },
    remove(storageKey, key) {
      const t = table(storageKey);
      const prev = t.records.get(key);
      if (!prev) return undefined;
      t.records.delete(key);
      t.sorted = undefined;
      rv += 1;
      const obj = { ...prev.obj, metadata: { ...prev.obj.metadata, resourceVersion: String(rv) } };
      const e: StoreEvent = {
        type: 'DELETED',
        rv,
        storageKey,
        key,
        namespace: namespaceOf(obj),
        obj,
        json: JSON.stringify(obj),
        prev: prev.obj,
        lines: new Map(),
      };
      record(e);
      return e;
    },
    eventsSince(since) {
      // History is ordered by rv: binary search for the first event after `since`.
      let lo = 0,
        hi = history.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (history[mid]!.rv <= since) lo = mid + 1;
        else hi = mid;
      }
      return history.slice(lo);
    },
    watchFrom(storageKey, since) {
      const cache = cacheOf(storageKey);
      // Until the first event falls out, the cache can serve everything after its LIST; then from its oldest event.
      const oldest = cache.dropped ? cache.events[cache.start]!.rv : cache.listRv + 1;
      if (since < oldest - 1) return { tooOldFor: oldest - 1 };
      let lo = cache.start,
        hi = cache.events.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cache.events[mid]!.rv <= since) lo = mid + 1;
        else hi = mid;
      }
      return { events: cache.events.slice(lo) };
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    compact() {
      compacted = rv;
      history = [];
    },
    restartWatchCaches() {
      caches.clear();
      cachesStartedAt = rv;
    },
    startWatchCache(storageKey) {
      if (!caches.has(storageKey)) caches.set(storageKey, { listRv: rv, events: [], start: 0, dropped: false });
    },
  };
}
