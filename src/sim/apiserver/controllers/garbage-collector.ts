// The garbage collector of kube-controller-manager, inside the double: dependents whose owners are all gone are
// deleted (background), "orphan" strips the owner reference from dependents before the owner goes, and
// "foregroundDeletion" keeps the owner until its dependents are gone (goldens 71, 72).
import type { ServerContext } from '../context.js';
import type { StoreEvent } from '../store.js';
import { deleteOne } from '../handlers/delete.js';
import { rewrite, systemRequest } from './system-writes.js';

const GC = { manager: 'kube-controller-manager' };
const ref = (storageKey: string, key: string) => `${storageKey}\u0001${key}`;
const unref = (r: string) => r.split('\u0001') as [string, string];

export function startGarbageCollector(ctx: ServerContext): () => void {
  const byUid = new Map<string, string>();
  const dependents = new Map<string, Set<string>>();
  const pending = new Set<string>();
  let scheduled = false;

  const index = (e: StoreEvent) => {
    const r = ref(e.storageKey, e.key);
    const drop = (obj: any) => {
      for (const o of obj?.metadata?.ownerReferences ?? []) dependents.get(o.uid)?.delete(r);
    };
    drop(e.prev);
    if (e.type === 'DELETED') {
      byUid.delete(e.obj.metadata.uid);
      drop(e.obj);
    } else {
      byUid.set(e.obj.metadata.uid, r);
      for (const o of e.obj.metadata.ownerReferences ?? []) {
        let set = dependents.get(o.uid);
        if (!set) dependents.set(o.uid, (set = new Set()));
        set.add(r);
      }
    }
  };

  const reconcile = async (uid: string) => {
    const owner = byUid.get(uid);
    const deps = [...(dependents.get(uid) ?? [])];
    if (!owner) {
      // Owner gone: delete dependents with no other live owner, otherwise drop the dangling reference.
      for (const d of deps) {
        const [storageKey, key] = unref(d);
        const obj = ctx.store.get(storageKey, key)?.obj;
        if (!obj) continue;
        const live = (obj.metadata.ownerReferences ?? []).filter((o: any) => o.uid !== uid && byUid.has(o.uid));
        if (live.length)
          rewrite(
            ctx,
            storageKey,
            key,
            (o) => {
              o.metadata.ownerReferences = o.metadata.ownerReferences.filter((x: any) => x.uid !== uid);
            },
            GC,
          );
        else await deleteDependent(storageKey, key);
      }
      return;
    }
    const [storageKey, key] = unref(owner);
    const obj = ctx.store.get(storageKey, key)?.obj;
    if (!obj?.metadata.deletionTimestamp) return;
    const finalizers: string[] = obj.metadata.finalizers ?? [];
    if (finalizers.includes('orphan')) {
      for (const d of deps) {
        const [dk, dkey] = unref(d);
        rewrite(
          ctx,
          dk,
          dkey,
          (o) => {
            o.metadata.ownerReferences = o.metadata.ownerReferences.filter((x: any) => x.uid !== uid);
            if (!o.metadata.ownerReferences.length) delete o.metadata.ownerReferences;
          },
          GC,
        );
      }
      rewrite(
        ctx,
        storageKey,
        key,
        (o) => {
          o.metadata.finalizers = o.metadata.finalizers.filter((f: string) => f !== 'orphan');
        },
        GC,
      );
    } else if (finalizers.includes('foregroundDeletion')) {
      const remaining = deps.filter((d) => ctx.store.get(...unref(d)));
      for (const d of remaining) await deleteDependent(...unref(d));
      if (!deps.some((d) => ctx.store.get(...unref(d)))) {
        rewrite(
          ctx,
          storageKey,
          key,
          (o) => {
            o.metadata.finalizers = o.metadata.finalizers.filter((f: string) => f !== 'foregroundDeletion');
          },
          GC,
        );
      }
    }
  };

  const deleteDependent = async (storageKey: string, key: string) => {
    const type = ctx.registry.byStorage(storageKey)[0];
    const obj = ctx.store.get(storageKey, key)?.obj;
    if (!type || !obj || obj.metadata.deletionTimestamp) return;
    try {
      await deleteOne(
        ctx,
        systemRequest(type, obj.metadata.namespace, 'system:serviceaccount:kube-system:generic-garbage-collector'),
        type,
        key,
        { propagationPolicy: 'Background' },
      );
    } catch {
      /* refused by admission or already gone: the next event retries */
    }
  };

  const flush = async () => {
    scheduled = false;
    const uids = [...pending];
    pending.clear();
    for (const uid of uids) await reconcile(uid);
  };

  const unsubscribe = ctx.store.subscribe((e) => {
    index(e);
    const uid = e.obj.metadata.uid;
    if (e.type === 'DELETED') {
      pending.add(uid);
      for (const o of e.obj.metadata.ownerReferences ?? []) pending.add(o.uid); // a foreground owner may now be free
    } else if (e.obj.metadata.deletionTimestamp) pending.add(uid);
    else return;
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
  });
  return unsubscribe;
}
