// One informer per hub and cached kind. client-node's informer stops for good after a real error (only a clean
// stream close reconnects, and a 410 Gone relists; STACK.md §3d), so this wrapper restarts it with capped
// exponential backoff and keeps the health a hub status reports.
import { ListWatch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { CachedKind, ChangeType, KubeObject } from '../services/ports.js';
import { apiVersionOf, resourcePath } from './kinds.js';
import { toDomainError } from './map-error.js';
import type { RestClient } from './rest-client.js';
import type { RequestGate } from './request-gate.js';
import type { GatewayLog } from './gateway-log.js';
import { ReopenableWatch } from './reopenable-watch.js';
import { listInPages } from './paged-list.js';
import { slimObject } from './slim-object.js';

export interface InformerHealth {
  synced: boolean;
  lastError?: string;
}

export interface KindInformer {
  readonly kind: CachedKind;
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
  health(): InformerHealth;
  /** Resolves once the first list and watch are up, or failed (then it keeps retrying in the background). */
  start(): Promise<void>;
  /** The hub's credentials changed: watch again with them, from where the cache is (no relist, no events). */
  reconnect(): void;
  stop(): Promise<void>;
}

export interface KindInformerDeps {
  hub: string;
  kind: CachedKind;
  /** The hub's KubeConfig as it is now (it changes when its credentials are reloaded). */
  kubeConfig: () => KubeConfig;
  /** Watch this namespace only (Beekeeper's own kinds: its Role is namespaced); default all namespaces. */
  namespace?: string;
  rest: RestClient;
  /** The hub's request gate: the LIST goes through it; the watch, long-running, does not (nor does the server count it). */
  gate: RequestGate;
  log: GatewayLog;
  onEvent: (type: ChangeType, obj: KubeObject) => void;
  backoff?: { initialMs: number; maxMs: number };
}

export function createKindInformer({
  hub,
  kind,
  kubeConfig,
  namespace,
  rest,
  gate,
  log,
  onEvent,
  backoff = { initialMs: 500, maxMs: 30_000 },
}: KindInformerDeps): KindInformer {
  const path = resourcePath(kind, namespace ? { namespace } : undefined);
  let synced = false;
  let lastError: string | undefined;
  let failures = 0;
  let errors = 0;
  let stopped = false;
  let restartTimer: NodeJS.Timeout | undefined;

  // Cached copies leave out managedFields and kubectl's last-applied annotation (slim-object.ts), listed or watched.
  const watch = new ReopenableWatch(kubeConfig, slimObject);
  const informer = new ListWatch<KubernetesObject>(
    path,
    watch,
    async () => {
      const list = await listInPages(rest, path, { send: (request) => gate.run(request), transform: slimObject });
      synced = true;
      return list;
    },
    false,
  );

  // List items come without apiVersion/kind; fill them in so cached objects look like fetched ones.
  const typed = (o: KubernetesObject) => {
    o.apiVersion ??= apiVersionOf(kind);
    o.kind ??= kind;
    return o as KubeObject;
  };
  informer.on('add', (o) => onEvent('ADDED', typed(o)));
  informer.on('update', (o) => onEvent('MODIFIED', typed(o)));
  informer.on('delete', (o) => onEvent('DELETED', typed(o)));
  informer.on('error', (err: unknown) => {
    if (stopped) return; // stop() itself reports an AbortError
    errors++;
    failures++;
    const mapped = toDomainError(err, `${kind} on hub ${hub}`);
    const message = mapped instanceof Error ? mapped.message.split('\n')[0]! : String(mapped);
    if (lastError === undefined) log.warn({ hub, kind, err: message }, 'informer failed; restarting with backoff');
    lastError = message;
    if (restartTimer) return;
    const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failures - 1));
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      void run();
    }, delay);
    restartTimer.unref();
  });

  const run = async () => {
    if (stopped) return;
    const before = errors;
    await informer.start();
    if (errors === before && !stopped) {
      if (lastError !== undefined) log.info({ hub, kind }, 'informer recovered');
      lastError = undefined;
      failures = 0;
    }
  };

  return {
    kind,
    get: (namespace, name) => informer.get(name, namespace) as KubeObject | undefined,
    list: (namespace) => informer.list(namespace) as KubeObject[],
    health: () => ({ synced, ...(lastError !== undefined ? { lastError } : {}) }),
    start: run,
    reconnect() {
      if (stopped) return;
      // Failing (the old token was revoked, say) and waiting out its backoff: try the new credentials now.
      if (restartTimer) {
        clearTimeout(restartTimer);
        restartTimer = undefined;
        failures = 0;
        void run();
        return;
      }
      watch.reopen();
    },
    async stop() {
      stopped = true;
      if (restartTimer) clearTimeout(restartTimer);
      await informer.stop();
    },
  };
}
