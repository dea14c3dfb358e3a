import { isNotFound } from './errors.js';
import type { KubeClient, KubeObject } from './kube-client.js';
import type { ApiResource } from './resources.js';
import type { WatchHandle } from './watch.js';

export type InformerEvent = 'ADDED' | 'MODIFIED' | 'DELETED';
export type InformerHandler = (type: InformerEvent, obj: KubeObject) => void;

export interface Informer {
  readonly resource: ApiResource;
  /** Resolves after the first successful list (or once the kind turns out not to be served). */
  readonly synced: Promise<void>;
  /** False while the API server does not serve this kind (e.g. a real server without that CRD). */
  served(): boolean;
  get<T extends KubeObject = KubeObject>(namespace: string | undefined, name: string): T | undefined;
  list<T extends KubeObject = KubeObject>(namespace?: string): T[];
  onEvent(handler: InformerHandler): void;
  stop(): void;
}

export const keyOf = (obj: KubeObject): string =>
  obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;

/**
 * List-then-watch cache of one kind across all namespaces. On 410 Gone it relists and reports the difference
 * as events, so handlers stay level-triggered.
 */
export function createInformer(
  client: KubeClient,
  resource: ApiResource,
  opts: {
    retryMs?: number;
    /** The first failed list or watch after a success (the API server went away, say); it keeps retrying. */
    onError?: (err: unknown) => void;
  } = {},
): Informer {
  const cache = new Map<string, KubeObject>();
  // Per-namespace index, so list(ns) stays cheap with thousands of objects in other namespaces.
  const byNamespace = new Map<string, Map<string, KubeObject>>();
  const put = (key: string, obj: KubeObject) => {
    cache.set(key, obj);
    const ns = obj.metadata.namespace ?? '';
    let m = byNamespace.get(ns);
    if (!m) byNamespace.set(ns, (m = new Map()));
    m.set(key, obj);
  };
  const drop = (key: string, obj: KubeObject) => {
    cache.delete(key);
    const ns = obj.metadata.namespace ?? '';
    byNamespace.get(ns)?.delete(key);
    if (byNamespace.get(ns)?.size === 0) byNamespace.delete(ns);
  };
  const handlers: InformerHandler[] = [];
  let watch: WatchHandle | undefined;
  let stopped = false;
  let isServed = true;
  let timer: NodeJS.Timeout | undefined;
  let markSynced!: () => void;
  const synced = new Promise<void>((resolve) => (markSynced = resolve));
  const retryMs = opts.retryMs ?? 1000;

  const emit = (type: InformerEvent, obj: KubeObject) => {
    for (const h of handlers) h(type, obj);
  };
  let failing = false;
  const failed = (err: unknown) => {
    if (stopped || failing) return;
    failing = true;
    opts.onError?.(err);
  };
  // Not unref'd, like the watch's reconnect: a process of controllers lives on while its API server is away.
  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => void relist(), retryMs);
  };

  async function relist() {
    if (stopped) return;
    let list;
    try {
      list = await client.list(resource);
    } catch (e) {
      if (isNotFound(e)) {
        isServed = false;
        markSynced();
      } else {
        failed(e);
      }
      return retry();
    }
    if (stopped) return;
    failing = false;
    isServed = true;
    const seen = new Set<string>();
    for (const obj of list.items) {
      const key = keyOf(obj);
      seen.add(key);
      const old = cache.get(key);
      put(key, obj);
      if (!old) emit('ADDED', obj);
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) emit('MODIFIED', obj);
    }
    for (const [key, obj] of cache) {
      if (!seen.has(key)) {
        drop(key, obj);
        emit('DELETED', obj);
      }
    }
    markSynced();
    watch = client.watch(resource, undefined, {
      resourceVersion: list.metadata.resourceVersion,
      onEvent(type, obj) {
        failing = false;
        const key = keyOf(obj);
        if (type === 'DELETED') drop(key, obj);
        else put(key, obj);
        emit(type, obj);
      },
      onGone: () => void relist(),
      onError: failed,
      onOpen: () => void (failing = false),
    });
  }

  void relist();
  return {
    resource,
    synced,
    served: () => isServed,
    get: (namespace, name) => cache.get(namespace ? `${namespace}/${name}` : name) as any,
    list: (namespace) =>
      [...(namespace === undefined ? cache : (byNamespace.get(namespace) ?? new Map())).values()] as any,
    onEvent: (h) => void handlers.push(h),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      watch?.stop();
    },
  };
}
