// The namespace controller inside the double: once a namespace is terminating it deletes everything in it, reports
// what is left in the namespace conditions (golden 77), and removes the namespace when it is empty.
import type { ServerContext } from '../context.js';
import type { ResourceType } from '../types.js';
import { deleteOne } from '../handlers/delete.js';
import { formatTime } from '../meta.js';
import { qualifiedName } from '../status.js';
import { rewrite, systemRequest } from './system-writes.js';

const NS = '/namespaces';

export function startNamespaceController(ctx: ServerContext): () => void {
  const pending = new Set<string>();
  let scheduled = false;

  const reconcile = async (ns: string) => {
    const nsObj = ctx.store.get(NS, ns)?.obj;
    if (!nsObj?.metadata.deletionTimestamp) return;
    const namespaced = new Map<string, ResourceType>();
    for (const t of ctx.registry.all())
      if (t.namespaced && !namespaced.has(t.storageKey) && !t.builtin?.fromStorage) namespaced.set(t.storageKey, t);
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const [storageKey, type] of namespaced) {
      const keys = ctx.store.sortedKeys(storageKey).filter((k) => k.startsWith(`${ns}/`));
      for (const key of keys) {
        const obj = ctx.store.get(storageKey, key)?.obj;
        if (!obj) continue;
        if (!obj.metadata.deletionTimestamp) {
          try {
            await deleteOne(
              ctx,
              systemRequest(type, ns, 'system:serviceaccount:kube-system:namespace-controller'),
              type,
              key,
              { propagationPolicy: 'Background' },
            );
          } catch {
            /* refused (admission): it stays and is reported as remaining */
          }
        }
        const still = ctx.store.get(storageKey, key)?.obj;
        if (!still) continue;
        const name = qualifiedName({ group: type.group, resource: type.resource, kind: type.kind });
        remaining.set(name, (remaining.get(name) ?? 0) + 1);
        for (const f of still.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
    if (remaining.size === 0) {
      // Dropping the last finalizer lets rewrite() remove the namespace.
      rewrite(ctx, NS, ns, (o) => {
        o.spec = { ...o.spec, finalizers: (o.spec?.finalizers ?? []).filter((f: string) => f !== 'kubernetes') };
        if (!o.spec.finalizers.length) delete o.spec.finalizers;
      });
      return;
    }
    const now = formatTime(ctx.clock.now());
    const describe = (m: Map<string, number>, word: string) =>
      [...m]
        .sort()
        .map(([k, n]) => `${k} ${word} ${n} resource instances`)
        .join(', ');
    const conditions = [
      {
        type: 'NamespaceDeletionDiscoveryFailure',
        status: 'False',
        reason: 'ResourcesDiscovered',
        message: 'All resources successfully discovered',
      },
      {
        type: 'NamespaceDeletionGroupVersionParsingFailure',
        status: 'False',
        reason: 'ParsedGroupVersions',
        message: 'All legacy kube types successfully parsed',
      },
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
      },
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${describe(remaining, 'has')}`,
      },
      finalizers.size
        ? {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            reason: 'SomeFinalizersRemain',
            message: `Some content in the namespace has finalizers remaining: ${describe(finalizers, 'in')}`,
          }
        : {
            type: 'NamespaceFinalizersRemaining',
            status: 'False',
            reason: 'ContentHasNoFinalizers',
            message: 'All content-preserving finalizers have been removed',
          },
    ];
    rewrite(
      ctx,
      NS,
      ns,
      (o) => {
        const old: any[] = o.status?.conditions ?? [];
        o.status.conditions = conditions.map((c) => {
          const prev = old.find((x) => x.type === c.type);
          const keepTime = prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message;
          return {
            type: c.type,
            status: c.status,
            lastTransitionTime: keepTime ? prev.lastTransitionTime : now,
            reason: c.reason,
            message: c.message,
          };
        });
      },
      { manager: 'kube-controller-manager', subresource: 'status' },
    );
  };

  const flush = async () => {
    scheduled = false;
    const list = [...pending];
    pending.clear();
    for (const ns of list) await reconcile(ns);
  };

  const unsubscribe = ctx.store.subscribe((e) => {
    const ns = e.storageKey === NS ? e.key : e.namespace;
    if (!ns || !ctx.store.get(NS, ns)?.obj.metadata.deletionTimestamp) return;
    pending.add(ns);
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
  });
  return unsubscribe;
}
