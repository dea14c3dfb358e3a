// The double's "etcd": one Map per storage table, one global resourceVersion counter, and a bounded history of
// change events for watch resume. Stored objects are never mutated; each write stores a fresh object in wire order
// and its JSON, so LIST and watch fan-out concatenate pre-serialised strings instead of re-encoding.

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A stored object, its JSON, and (built on first LIST) the bytes of its list-item form. */
export interface StoredRecord { obj: any; json: string; item?: Buffer }

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

export interface Table { records: Map<string, StoredRecord>; sorted?: string[] }

export const objectKey = (namespace: string | undefined, name: string) => (namespace ? `${namespace}/${name}` : name);

export interface Store {
  currentRv(): number;
  /** Watches from a resourceVersion below this fail with 410: their events are no longer kept. */
  compactedRv(): number;
  table(storageKey: string): Table;
  get(storageKey: string, key: string): StoredRecord | undefined;
  /** Keys of a table in etcd order (sorted), cached until the next insert or delete. */
  sortedKeys(storageKey: string): string[];
  /** Stores `obj` under a fresh resourceVersion (written into obj.metadata) and emits ADDED or MODIFIED. */
  put(storageKey: string, key: string, obj: any): StoreEvent;
  /** Removes the object; the DELETED event carries its last state with a fresh resourceVersion. */
  remove(storageKey: string, key: string): StoreEvent | undefined;
  /** Events after `rv`, oldest first (callers check compactedRv first). */
  eventsSince(rv: number): StoreEvent[];
  subscribe(fn: (e: StoreEvent) => void): () => void;
  /** Forget all history up to now, as an etcd compaction plus a watch-cache restart would. */
  compact(): void;
}

export function createStore(opts: { historyLimit: number }): Store {
  let rv = 1;
  let compacted = 1;
  const tables = new Map<string, Table>();
  let history: StoreEvent[] = [];
  const listeners = new Set<(e: StoreEvent) => void>();

  const table = (storageKey: string) => {
    let t = tables.get(storageKey);
    if (!t) tables.set(storageKey, (t = { records: new Map() }));
    return t;
  };

  const record = (e: StoreEvent) => {
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
      const e: StoreEvent = { type: prev ? 'MODIFIED' : 'ADDED', rv, storageKey, key, namespace: namespaceOf(obj), obj, json,
        prev: prev?.obj, lines: new Map() };
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
      const e: StoreEvent = { type: 'DELETED', rv, storageKey, key, namespace: namespaceOf(obj), obj,
        json: JSON.stringify(obj), prev: prev.obj, lines: new Map() };
      record(e);
      return e;
    },
    eventsSince(since) {
      // History is ordered by rv: binary search for the first event after `since`.
      let lo = 0, hi = history.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (history[mid]!.rv <= since) lo = mid + 1; else hi = mid;
      }
      return history.slice(lo);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    compact() {
      compacted = rv;
      history = [];
    },
  };
}
