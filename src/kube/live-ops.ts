// Live reads and writes against one hub: through its request gate, and every failure mapped to a domain error once.
import { PatchStrategy } from '@kubernetes/client-node';
import type { KindName, KubeObject, ObjectRef } from '../services/ports.js';
import type { Hub } from './hub.js';
import { apiVersionOf, describeRef, KINDS, resourcePath } from './kinds.js';
import { toDomainError } from './map-error.js';
import type { RestRequest } from './rest-client.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function call<T>(hub: Hub, method: Method, path: string, req: RestRequest, what: string): Promise<T> {
  try {
    return await hub.gate.run(() => hub.rest.request<T>(method, path, req), { signal: req.signal });
  } catch (err) {
    throw toDomainError(err, what);
  }
}

const dryRunQuery = (dryRun?: boolean) => (dryRun ? { dryRun: 'All' } : {});

function withType<T extends KubeObject>(kind: KindName, obj: T): T {
  return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOf(kind), kind: obj.kind ?? kind };
}

export async function getObject<T extends KubeObject>(
  hub: Hub,
  kind: KindName,
  ref: ObjectRef,
): Promise<T | undefined> {
  try {
    return await call<T>(hub, 'GET', resourcePath(kind, ref), {}, describeRef(kind, ref));
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFound') return undefined;
    throw err;
  }
}

export async function listObjects<T extends KubeObject>(
  hub: Hub,
  kind: KindName,
  opts: { namespace?: string; labelSelector?: string } = {},
): Promise<T[]> {
  const items: T[] = [];
  let cont: string | undefined;
  do {
    const page = await call<{ items?: T[]; metadata?: { continue?: string } }>(
      hub,
      'GET',
      resourcePath(kind, { namespace: opts.namespace }),
      { query: { labelSelector: opts.labelSelector, limit: 500, continue: cont } },
      `${kind} list on hub ${hub.name}`,
    );
    for (const item of page.items ?? []) items.push(withType(kind, item));
    cont = page.metadata?.continue || undefined;
  } while (cont);
  return items;
}

export async function createObject<T extends KubeObject>(
  hub: Hub,
  kind: KindName,
  obj: T,
  opts: { dryRun?: boolean } = {},
): Promise<T> {
  const ref = {
    hub: hub.name,
    namespace: KINDS[kind].namespaced ? obj.metadata.namespace : undefined,
    name: obj.metadata.name,
  };
  return call<T>(
    hub,
    'POST',
    resourcePath(kind, { namespace: ref.namespace }),
    { body: withType(kind, obj), query: dryRunQuery(opts.dryRun) },
    describeRef(kind, ref),
  );
}

export async function mergePatchObject<T extends KubeObject>(
  hub: Hub,
  kind: KindName,
  ref: ObjectRef,
  patch: Record<string, unknown>,
  opts: { resourceVersion?: string; subresource?: 'status'; dryRun?: boolean } = {},
): Promise<T> {
  // A resourceVersion inside a merge patch is a precondition: stale means 409 Conflict (kube-golden 34).
  const body = opts.resourceVersion
    ? {
        ...patch,
        metadata: {
          ...((patch.metadata as Record<string, unknown> | undefined) ?? {}),
          resourceVersion: opts.resourceVersion,
        },
      }
    : patch;
  return call<T>(
    hub,
    'PATCH',
    resourcePath(kind, ref, opts.subresource),
    { body, contentType: PatchStrategy.MergePatch, query: dryRunQuery(opts.dryRun) },
    describeRef(kind, ref),
  );
}

export async function replaceObject<T extends KubeObject>(
  hub: Hub,
  kind: KindName,
  ref: ObjectRef,
  obj: T,
): Promise<T> {
  return call<T>(hub, 'PUT', resourcePath(kind, ref), { body: withType(kind, obj) }, describeRef(kind, ref));
}

export async function deleteObject(
  hub: Hub,
  kind: KindName,
  ref: ObjectRef,
  opts: { resourceVersion?: string; uid?: string; propagation?: 'Background' | 'Foreground'; dryRun?: boolean } = {},
): Promise<void> {
  const preconditions =
    opts.uid || opts.resourceVersion ? { uid: opts.uid, resourceVersion: opts.resourceVersion } : undefined;
  await call(
    hub,
    'DELETE',
    resourcePath(kind, ref),
    {
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: opts.propagation ?? 'Background',
        ...(preconditions ? { preconditions } : {}),
        ...(opts.dryRun ? { dryRun: ['All'] } : {}),
      },
    },
    describeRef(kind, ref),
  );
}
