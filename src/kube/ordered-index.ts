// An index over one cached kind across every hub, kept by the informers' add/update/delete events: the objects in
// key order ({hub}/{namespace}/{name}, the order GET /v1/clusters pages in) and, per label key and value, that order
// narrowed to the objects carrying the label. A filtered page then reads only the objects that can match, already
// in order, instead of filtering and sorting every cached object on every request (issue 14: 10,000 clusters
// listed 100 per page at 16 connections). The index holds references to the informer's own objects, no copies.
import { matchesLabels, type Requirement } from '../hive/label-selector.js';
import type { ChangeType, KubeObject } from '../services/ports.js';

export interface IndexedObject<T extends KubeObject = KubeObject> {
  /** `{hub}/{namespace}/{name}` (namespace empty for cluster-scoped kinds); compared as strings, code unit by code unit. */
  key: string;
  hub: string;
  object: T;
}

/** Never changed once made (an update makes a new one), so the same entry can be in many runs and answers. */
interface Entry extends IndexedObject {
  readonly namespace: string;
  readonly labels: Record<string, string>;
}

export interface OrderedIndexFilter {
  hub?: string;
  namespace?: string;
  /** Parsed (label-selector.ts); every requirement must hold. */
  requirements?: readonly Requirement[];
}

export interface OrderedIndex {
  /** An informer event of `hub`, applied before anyone is told of it (the gateway's onEvent). */
  apply(hub: string, type: ChangeType, obj: KubeObject): void;
  /** The objects matching the filter, in key order (a snapshot: later events do not change it). */
  select<T extends KubeObject>(filter?: OrderedIndexFilter): Array<IndexedObject<T>>;
}

export const orderKey = (hub: string, obj: KubeObject): string =>
  `${hub}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;

const byKey = (a: Entry, b: Entry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** First position whose key is >= `key` (keys are unique). */
function lowerBound(order: readonly Entry[], key: string): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds inserted one by one below this many at a read; above it, one sort of everything is cheaper. */
const INSERT_ONE_BY_ONE = 64;

/**
 * Entries kept in key order, lazily: an add queues up and the next read puts the queue in place, so an informer's
 * first list of 10,000 objects costs one sort, not 10,000 inserts. Small on purpose (two arrays, the queue only
 * while it holds something): a label whose value is unique to each object makes a run per object. The index adds
 * an entry to a run once (when it gains the label) and removes it once.
 */
class OrderedRun {
  private order: Entry[] = [];
  private added: Entry[] | undefined;

  get size(): number {
    return this.order.length + (this.added?.length ?? 0);
  }

  add(entry: Entry): void {
    if (this.order.length === 0 && !this.added) this.order.push(entry);
    else (this.added ??= []).push(entry);
  }

  /** `next` where `old` was (same key): a changed object keeps its place. */
  replace(old: Entry, next: Entry): void {
    const queued = this.added?.indexOf(old) ?? -1;
    if (queued >= 0) {
      this.added![queued] = next;
      return;
    }
    const at = lowerBound(this.order, old.key);
    if (this.order[at] === old) this.order[at] = next;
  }

  remove(entry: Entry): void {
    const queued = this.added?.indexOf(entry) ?? -1;
    if (queued >= 0) {
      this.added!.splice(queued, 1);
      if (this.added!.length === 0) this.added = undefined;
      return;
    }
    const at = lowerBound(this.order, entry.key);
    if (this.order[at] === entry) this.order.splice(at, 1);
  }

  view(): readonly Entry[] {
    if (this.added) {
      if (this.added.length < INSERT_ONE_BY_ONE) {
        for (const e of this.added) this.order.splice(lowerBound(this.order, e.key), 0, e);
      } else this.order = this.order.concat(this.added).sort(byKey);
      this.added = undefined;
    }
    return this.order;
  }
}

/** Two sorted runs merged into one, in linear time (the runs are disjoint: an object has one value per label key). */
function merge(a: readonly Entry[], b: readonly Entry[]): readonly Entry[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: Entry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]!.key < b[j]!.key ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

export function createOrderedIndex(): OrderedIndex {
  const entries = new Map<string, Entry>();
  const all = new OrderedRun();
  /** label key -> value -> the objects carrying it. */
  const postings = new Map<string, Map<string, OrderedRun>>();

  const posting = (key: string, value: string, create: boolean): OrderedRun | undefined => {
    let values = postings.get(key);
    if (!values) {
      if (!create) return undefined;
      values = new Map();
      postings.set(key, values);
    }
    let run = values.get(value);
    if (!run && create) {
      run = new OrderedRun();
      values.set(value, run);
    }
    return run;
  };

  const unpost = (entry: Entry, key: string, value: string) => {
    const run = posting(key, value, false);
    if (!run) return;
    run.remove(entry);
    // Values come and go (versions, claim names): an empty run is dropped, not kept forever.
    if (run.size === 0) {
      const values = postings.get(key)!;
      values.delete(value);
      if (values.size === 0) postings.delete(key);
    }
  };

  /**
   * Where to start: the smallest run an `in` requirement allows (every match is in it), else everything; and the
   * requirements still to check on each object (the one the runs answer exactly is not).
   */
  const source = (requirements: readonly Requirement[]): { order: readonly Entry[]; rest: readonly Requirement[] } => {
    let best: { size: number; runs: OrderedRun[]; by: Requirement } | undefined;
    for (const r of requirements) {
      if (r.op !== 'in') continue;
      const runs = r.values.map((v) => posting(r.key, v, false)).filter((x): x is OrderedRun => x !== undefined);
      const size = runs.reduce((n, run) => n + run.size, 0);
      if (!best || size < best.size) best = { size, runs, by: r };
    }
    if (!best) return { order: all.view(), rest: requirements };
    const chosen = best;
    return {
      order: chosen.runs.map((run) => run.view()).reduce(merge, []),
      rest: requirements.filter((r) => r !== chosen.by),
    };
  };

  return {
    apply(hub, type, obj) {
      const key = orderKey(hub, obj);
      const labels = obj.metadata.labels ?? {};
      const entry = entries.get(key);
      if (type === 'DELETED') {
        if (!entry) return;
        entries.delete(key);
        all.remove(entry);
        for (const [k, v] of Object.entries(entry.labels)) unpost(entry, k, v);
        return;
      }
      if (!entry) {
        const added = { key, hub, namespace: obj.metadata.namespace ?? '', object: obj, labels };
        entries.set(key, added);
        all.add(added);
        for (const [k, v] of Object.entries(labels)) posting(k, v, true)!.add(added);
        return;
      }
      // Same key: a new entry takes the old one's place in every run it stays in; only runs of changed labels move
      // it. Entries are never changed, so select() hands them out as they are (no copy per matching object).
      const before = entry.labels;
      const next: Entry = { ...entry, object: obj, labels };
      entries.set(key, next);
      all.replace(entry, next);
      for (const [k, v] of Object.entries(before)) {
        if (labels[k] !== v) unpost(entry, k, v);
        else posting(k, v, false)?.replace(entry, next);
      }
      for (const [k, v] of Object.entries(labels)) if (before[k] !== v) posting(k, v, true)!.add(next);
    },

    select<T extends KubeObject>(filter: OrderedIndexFilter = {}) {
      const { order, rest } = source(filter.requirements ?? []);
      // Nothing left to check on each object: the run is the answer (a copy, so later events do not change it).
      if (rest.length === 0 && filter.hub === undefined && filter.namespace === undefined)
        return order.slice() as IndexedObject[] as Array<IndexedObject<T>>;
      // Keys sharing a prefix are contiguous in key order: a hub (and namespace) is a range, found by bisection.
      const prefix =
        filter.hub !== undefined ? `${filter.hub}/${filter.namespace !== undefined ? `${filter.namespace}/` : ''}` : '';
      const out: Array<IndexedObject<T>> = [];
      for (let i = prefix ? lowerBound(order, prefix) : 0; i < order.length; i++) {
        const e = order[i]!;
        if (prefix && !e.key.startsWith(prefix)) break;
        if (filter.namespace !== undefined && e.namespace !== filter.namespace) continue;
        if (rest.length > 0 && !matchesLabels(rest as Requirement[], e.labels)) continue;
        out.push(e as IndexedObject as IndexedObject<T>);
      }
      return out;
    },
  };
}
