import type { ApiResource } from '../client/index.js';
import { canonicalJson } from './names.js';
import type { HiveContext, Obj } from './context.js';

/** Replaces the status (optimistic: the resourceVersion we read is the precondition). False when nothing changed. */
export async function writeStatus(
  ctx: HiveContext,
  r: ApiResource,
  obj: Obj,
  status: Record<string, unknown>,
): Promise<boolean> {
  if (canonicalJson(obj.status ?? {}) === canonicalJson(status)) return false;
  await ctx.client.updateStatus(r, { ...obj, status });
  return true;
}

/** Replaces the whole object (spec/metadata) if it differs from what we read. */
export async function writeObject(ctx: HiveContext, r: ApiResource, before: Obj, after: Obj): Promise<boolean> {
  if (canonicalJson(before) === canonicalJson(after)) return false;
  await ctx.client.update(r, after);
  return true;
}

export async function removeFinalizer(ctx: HiveContext, r: ApiResource, obj: Obj, finalizer: string): Promise<void> {
  const finalizers = (obj.metadata.finalizers ?? []).filter((f: string) => f !== finalizer);
  await ctx.client.update(r, { ...obj, metadata: { ...obj.metadata, finalizers } });
}

export async function addFinalizer(ctx: HiveContext, r: ApiResource, obj: Obj, finalizer: string): Promise<void> {
  const finalizers = [...(obj.metadata.finalizers ?? []), finalizer];
  await ctx.client.update(r, { ...obj, metadata: { ...obj.metadata, finalizers } });
}

/** Creates, treating AlreadyExists as success (level-triggered controllers re-run creates). */
export async function ensureCreated(ctx: HiveContext, r: ApiResource, obj: Obj): Promise<void> {
  try {
    await ctx.client.create(r, obj);
  } catch (e: any) {
    if (e?.reason !== 'AlreadyExists') throw e;
  }
}

/** Deletes, treating NotFound as success. */
export async function ensureDeleted(
  ctx: HiveContext,
  r: ApiResource,
  ns: string | undefined,
  name: string,
): Promise<void> {
  try {
    await ctx.client.delete(r, ns, name, { propagationPolicy: 'Background' });
  } catch (e: any) {
    if (e?.code !== 404) throw e;
  }
}

/**
 * Reads the object fresh and applies `mutate` to its status until the write does not conflict. For the few
 * writes that must not be lost after a side effect (recording the ClusterProvision just created).
 */
export async function updateStatusFresh(
  ctx: HiveContext,
  r: ApiResource,
  ns: string | undefined,
  name: string,
  mutate: (status: Record<string, any>) => void,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const obj = await ctx.client.get(r, ns, name);
    const status = structuredClone(obj.status ?? {});
    mutate(status);
    try {
      await ctx.client.updateStatus(r, { ...obj, status });
      return;
    } catch (e: any) {
      if (e?.code !== 409 || attempt >= 10) throw e;
    }
  }
}
