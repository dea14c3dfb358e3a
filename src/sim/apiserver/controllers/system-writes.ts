// Writes made by the in-server controllers (garbage collector, namespace controller), outside any HTTP request.
import type { ApiRequest, ServerContext } from '../context.js';
import type { ResourceType } from '../types.js';
import { wireOrder } from '../object-pipeline.js';
import { updateManagedFields } from '../managed-fields.js';

export function systemRequest(type: ResourceType, namespace: string | undefined, username: string): ApiRequest {
  return {
    type,
    namespace,
    query: new URLSearchParams(),
    who: { username, groups: ['system:masters'] },
    body: '',
    dryRun: false,
    warnings: [],
  };
}

/** Rewrites a stored object through `edit`; removes it when it is terminating and has no finalizers left. */
export function rewrite(
  ctx: ServerContext,
  storageKey: string,
  key: string,
  edit: (obj: any) => void,
  opts: { manager?: string; subresource?: string } = {},
): void {
  const record = ctx.store.get(storageKey, key);
  if (!record) return;
  const type =
    ctx.registry.byStorage(storageKey).find((t) => !t.builtin?.fromStorage) ?? ctx.registry.byStorage(storageKey)[0];
  if (!type) return;
  const next = structuredClone(record.obj);
  edit(next);
  if (JSON.stringify(next) === record.json) return;
  if (isFinalized(storageKey, next)) {
    ctx.store.remove(storageKey, key);
    if (type.group === 'apiextensions.k8s.io') ctx.crdChanged(record.obj, true);
    return;
  }
  if (!next.metadata.finalizers?.length) delete next.metadata.finalizers;
  if (opts.manager) {
    const managed = updateManagedFields(type, record.obj, next, {
      manager: opts.manager,
      subresource: opts.subresource,
      apiVersion: record.obj.apiVersion,
      nowMs: ctx.clock.now(),
    });
    if (managed) next.metadata.managedFields = managed;
  }
  ctx.store.put(storageKey, key, wireOrder(type, next));
}

/** A terminating object with no finalizer left is gone; namespaces also wait for spec.finalizers ("kubernetes"). */
export function isFinalized(storageKey: string, obj: any): boolean {
  if (!obj.metadata.deletionTimestamp) return false;
  const pending = [
    ...(obj.metadata.finalizers ?? []),
    ...(storageKey === '/namespaces' ? (obj.spec?.finalizers ?? []) : []),
  ];
  return pending.length === 0;
}
