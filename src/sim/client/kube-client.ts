import { isNotFound } from './errors.js';
import { type ApiResource, apiVersionOf, resourcePath } from './resources.js';
import { type KubeTarget, requestJson } from './transport.js';
import { type WatchHandle, type WatchOptions, startWatch } from './watch.js';

export type KubeObject = Record<string, any> & {
  apiVersion?: string;
  kind?: string;
  metadata: Record<string, any>;
};

export interface KubeList<T = KubeObject> {
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface DeleteOptions {
  /** Refuse the delete if the object changed since this version (a plain Delete with precondition, as Hive does). */
  resourceVersion?: string;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/**
 * A small Kubernetes REST client for the simulator's controllers. It deliberately does not use
 * @kubernetes/client-node so that the simulator cannot agree with our gateway by sharing its code.
 */
export interface KubeClient {
  readonly target: KubeTarget;
  get<T extends KubeObject = KubeObject>(r: ApiResource, namespace: string | undefined, name: string): Promise<T>;
  /** Like get, but undefined for 404. */
  tryGet<T extends KubeObject = KubeObject>(
    r: ApiResource,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined>;
  list<T extends KubeObject = KubeObject>(r: ApiResource, namespace?: string, opts?: ListOptions): Promise<KubeList<T>>;
  create<T extends KubeObject = KubeObject>(r: ApiResource, obj: KubeObject): Promise<T>;
  update<T extends KubeObject = KubeObject>(r: ApiResource, obj: KubeObject): Promise<T>;
  updateStatus<T extends KubeObject = KubeObject>(r: ApiResource, obj: KubeObject): Promise<T>;
  mergePatch<T extends KubeObject = KubeObject>(
    r: ApiResource,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    opts?: { status?: boolean },
  ): Promise<T>;
  delete(r: ApiResource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<void>;
  watch(r: ApiResource, namespace: string | undefined, opts: WatchOptions): WatchHandle;
}

export function createKubeClient(target: KubeTarget): KubeClient {
  const call = <T>(method: string, path: string, body?: unknown, contentType?: string) =>
    requestJson<T>(target, { method, path, body, contentType });
  const withKind = (r: ApiResource, obj: KubeObject) => ({ ...obj, apiVersion: apiVersionOf(r), kind: r.kind });
  const ns = (obj: KubeObject) => obj.metadata.namespace as string | undefined;

  const client: KubeClient = {
    target,
    get: (r, namespace, name) => call('GET', resourcePath(r, namespace, name)),
    async tryGet(r, namespace, name) {
      try {
        return await client.get(r, namespace, name);
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async list(r, namespace, opts = {}) {
      const items: any[] = [];
      let cont: string | undefined;
      let rv: string | undefined;
      do {
        const q = new URLSearchParams({ limit: '500' });
        if (opts.labelSelector) q.set('labelSelector', opts.labelSelector);
        if (opts.fieldSelector) q.set('fieldSelector', opts.fieldSelector);
        if (cont) q.set('continue', cont);
        const page: KubeList = await call('GET', `${resourcePath(r, namespace)}?${q}`);
        // List items carry no apiVersion/kind; put them back so objects look the same everywhere.
        for (const item of page.items ?? []) items.push(withKind(r, item));
        cont = page.metadata?.continue || undefined;
        rv = page.metadata?.resourceVersion;
      } while (cont);
      return { metadata: { resourceVersion: rv }, items };
    },
    create: (r, obj) => call('POST', resourcePath(r, ns(obj)), withKind(r, obj)),
    update: (r, obj) => call('PUT', resourcePath(r, ns(obj), obj.metadata.name), withKind(r, obj)),
    updateStatus: (r, obj) => call('PUT', resourcePath(r, ns(obj), obj.metadata.name, 'status'), withKind(r, obj)),
    mergePatch: (r, namespace, name, patch, opts = {}) =>
      call(
        'PATCH',
        resourcePath(r, namespace, name, opts.status ? 'status' : undefined),
        patch,
        'application/merge-patch+json',
      ),
    async delete(r, namespace, name, opts = {}) {
      const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
      if (opts.resourceVersion) body.preconditions = { resourceVersion: opts.resourceVersion };
      if (opts.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
      await call('DELETE', resourcePath(r, namespace, name), body);
    },
    watch: (r, namespace, opts) => startWatch(target, resourcePath(r, namespace), opts),
  };
  return client;
}
