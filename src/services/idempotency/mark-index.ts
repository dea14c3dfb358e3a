// Objects carrying an Idempotency-Key mark, by key hash, kept from the informer caches: a key Redis does not know
// is looked up here without a call to any hub (ARCHITECTURE.md, "Reads come from informer caches").
import type { CachedKind, HiveStore, KubeObject } from '../ports.js';
import { readMark, type IdempotencyMark } from './mark.js';

export interface MarkedObject {
  kind: CachedKind;
  hub: string;
  object: KubeObject;
  mark: IdempotencyMark;
}

export interface MarkIndex {
  find(keyHash: string): MarkedObject | undefined;
  close(): void;
}

export function createMarkIndex(store: HiveStore, kinds: readonly CachedKind[]): MarkIndex {
  const byKey = new Map<string, { kind: CachedKind; hub: string; namespace?: string; name: string }>();
  const slot = (hub: string, o: KubeObject) => ({
    hub,
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
    name: o.metadata.name,
  });
  const add = (kind: CachedKind, hub: string, o: KubeObject) => {
    const mark = readMark(o);
    if (mark) byKey.set(mark.keyHash, { kind, ...slot(hub, o) });
  };
  // Subscribed before the caches are read, so an object added in between is not missed.
  const stops = kinds.map((kind) =>
    store.onChange(kind, (hub, type, o) => {
      const mark = readMark(o);
      if (!mark) return;
      const known = byKey.get(mark.keyHash);
      if (type !== 'DELETED') add(kind, hub, o);
      else if (
        known &&
        known.kind === kind &&
        known.hub === hub &&
        known.name === o.metadata.name &&
        known.namespace === o.metadata.namespace
      )
        byKey.delete(mark.keyHash);
    }),
  );
  for (const kind of kinds) for (const { hub, object } of store.cachedList(kind)) add(kind, hub, object);

  return {
    find(keyHash) {
      const at = byKey.get(keyHash);
      if (!at) return undefined;
      const object = store.cached(at.kind, at);
      const mark = object && readMark(object);
      return object && mark?.keyHash === keyHash ? { kind: at.kind, hub: at.hub, object, mark } : undefined;
    },
    close: () => stops.forEach((stop) => stop()),
  };
}
