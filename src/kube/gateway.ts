// The Kubernetes gateway: Beekeeper's only door to its hubs (ARCHITECTURE.md principle 4). Reads of cached kinds come
// from informers, writes go live, and waits are woken by informer events.
import type { Clock } from '../clock.js';
import { NotFound } from '../hive/errors.js';
import { matchesLabels, parseLabelSelector } from '../hive/label-selector.js';
import type { CachedKind, HiveStore, KubeObject, ObjectRef } from '../services/ports.js';
import type { GatewayLog } from './gateway-log.js';
import { createHub, type Hub } from './hub.js';
import { hubCache, hubStatus } from './hub-status.js';
import type { HubConnection } from './kubeconfig.js';
import { KINDS } from './kinds.js';
import { createOrderedIndex, orderKey, type OrderedIndex } from './ordered-index.js';
import { createObject, deleteObject, getObject, listObjects, mergePatchObject, replaceObject } from './live-ops.js';
import type { RateLimit } from './rate-limiter.js';
import { buildEvent, createEvent } from './record-event.js';
import { reviewToken, type TokenReviewStatus } from './token-review.js';
import { createWaiters } from './waiters.js';

export const CACHED_KINDS: readonly CachedKind[] = [
  'ClusterDeployment',
  'ClusterPool',
  'ClusterClaim',
  'ClusterImageSet',
  'ClusterRelocate',
  'Namespace',
  'HibernationSchedule',
  'ClusterOverride',
  'ExpiryPolicy',
  'WebhookEndpoint',
  'Operation',
  'Relocation',
];

export interface KubeGatewayOptions {
  hubs: readonly HubConnection[];
  log: GatewayLog;
  clock: Clock;
  /**
   * An optional client-side rate cap per hub, for hubs whose connection sets none. Default: no cap (the hub's own
   * 429 + Retry-After pace Beekeeper, request-gate.ts).
   */
  rateLimit?: RateLimit;
  /** Requests in flight per hub at most, for hubs whose connection sets none. Default 64. */
  maxInFlight?: number;
  requestTimeoutMs?: number;
  /** How long start-up waits for the first list of each hub; slower or dead hubs keep syncing in the background. */
  startupTimeoutMs?: number;
  /** Kinds to keep in informer caches (default: every CachedKind). */
  cachedKinds?: readonly CachedKind[];
  /** The hub holding Beekeeper's own kinds (beekeeper.io); other hubs do not watch them. Default: every hub. */
  stateHub?: string;
  /**
   * How often each hub's credential files (kubeconfig, in-cluster token) are read again besides their directory's
   * change events (hub-credentials.ts). Default 20 s.
   */
  credentialsPollMs?: number;
  /** A hub's changed credential files were loaded (`reloaded`) or refused, the last good ones kept (`rejected`). */
  onCredentialsReload?: (hub: string, outcome: 'reloaded' | 'rejected') => void;
  /**
   * Where Beekeeper's own kinds live: their informers watch this namespace only, which is what the namespaced Role
   * of deploy/base/rbac.yaml allows (src/kube/permissions.ts). Default: all namespaces.
   */
  stateNamespace?: string;
}

/** Kinds with an ordered index (ordered-index.ts) besides the informer's cache. */
const INDEXED_KINDS: readonly CachedKind[] = ['ClusterDeployment'];

/** Beekeeper's own kinds (beekeeper.io), cached on the state hub only. */
export const OWN_KINDS: readonly CachedKind[] = [
  'HibernationSchedule',
  'ClusterOverride',
  'ExpiryPolicy',
  'WebhookEndpoint',
  'Operation',
  'Relocation',
];

/** One hub's request gate as metrics show it (src/http/hub-request-metrics.ts). */
export interface HubRequestStats {
  hub: string;
  inFlight: number;
  window: number;
  throttled: number;
}

export type KubeGateway = HiveStore & {
  /** Per hub: requests in flight, the in-flight window, and the 429/503-with-Retry-After answers received. */
  hubRequests(): HubRequestStats[];
  /** Who a bearer token belongs to, by the hub's own API server (sign-in by TokenReview). */
  reviewToken(hub: string, token: string, audiences?: readonly string[]): Promise<TokenReviewStatus>;
  close(): Promise<void>;
};

export async function createKubeGateway({
  hubs: connections,
  log,
  clock,
  rateLimit,
  maxInFlight = 64,
  requestTimeoutMs = 15_000,
  startupTimeoutMs = 10_000,
  cachedKinds = CACHED_KINDS,
  stateHub,
  credentialsPollMs = 20_000,
  onCredentialsReload,
  stateNamespace,
}: KubeGatewayOptions): Promise<KubeGateway> {
  const waiters = createWaiters({ clock, log });
  // Kinds listed page by page from the cache (GET /v1/clusters): kept in key order, with a label index.
  const indexes = new Map<CachedKind, OrderedIndex>(INDEXED_KINDS.map((kind) => [kind, createOrderedIndex()]));
  const hubs = new Map<string, Hub>();
  for (const connection of connections) {
    hubs.set(
      connection.name,
      createHub({
        connection,
        kinds:
          stateHub && stateHub !== connection.name ? cachedKinds.filter((k) => !OWN_KINDS.includes(k)) : cachedKinds,
        namespaceOf: (kind) => (OWN_KINDS.includes(kind) ? stateNamespace : undefined),
        ...(rateLimit ? { rateLimit } : {}),
        maxInFlight,
        requestTimeoutMs,
        credentialsPollMs,
        clock,
        log,
        onEvent: (kind, type, obj) => {
          // The index first: whoever an event wakes reads lists that already include it. It holds the object as
          // the informer stores it (the same one cached() answers), whatever the event carried.
          const index = indexes.get(kind);
          if (index) {
            const ref = { hub: connection.name, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name };
            index.apply(connection.name, type, type === 'DELETED' ? obj : (cached(kind, ref) ?? obj));
          }
          waiters.dispatch(kind, connection.name, type, obj);
        },
        ...(onCredentialsReload ? { onReload: (outcome) => onCredentialsReload(connection.name, outcome) } : {}),
      }),
    );
  }

  const hubOf = (name: string): Hub => {
    const hub = hubs.get(name);
    if (!hub) throw new NotFound(`hub "${name}" is not configured`);
    return hub;
  };

  const cached = <T extends KubeObject>(kind: CachedKind, ref: ObjectRef): T | undefined => {
    const inf = hubs.get(ref.hub)?.informers.get(kind);
    return inf?.get(KINDS[kind].namespaced ? ref.namespace : undefined, ref.name) as T | undefined;
  };

  const starts = [...hubs.values()].map((hub) => hub.start());
  let startupTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(starts),
    new Promise<void>((resolve) => {
      startupTimer = setTimeout(resolve, startupTimeoutMs);
      startupTimer.unref();
    }),
  ]);
  clearTimeout(startupTimer);

  const store: KubeGateway = {
    hubNames: () => [...hubs.keys()],
    hubStatus: () => Promise.all([...hubs.values()].map(hubStatus)),
    hubCaches: () => [...hubs.values()].map(hubCache),

    cached,
    cachedList<T extends KubeObject>(
      kind: CachedKind,
      filter: { hub?: string; namespace?: string; labelSelector?: string } = {},
    ) {
      const selector = filter.labelSelector ? parseLabelSelector(filter.labelSelector) : undefined;
      const out: Array<{ hub: string; object: T }> = [];
      for (const hub of hubs.values()) {
        if (filter.hub && hub.name !== filter.hub) continue;
        const inf = hub.informers.get(kind);
        if (!inf) continue;
        for (const object of inf.list(KINDS[kind].namespaced ? filter.namespace : undefined)) {
          if (selector && !matchesLabels(selector, object.metadata.labels)) continue;
          out.push({ hub: hub.name, object: object as T });
        }
      }
      return out;
    },

    cachedInOrder<T extends KubeObject>(
      kind: CachedKind,
      filter: { hub?: string; namespace?: string; labelSelector?: string } = {},
    ) {
      const requirements = filter.labelSelector ? parseLabelSelector(filter.labelSelector) : undefined;
      const namespace = KINDS[kind].namespaced && filter.namespace ? filter.namespace : undefined;
      const hub = filter.hub || undefined;
      const index = indexes.get(kind);
      if (index) {
        return index.select<T>({
          ...(hub ? { hub } : {}),
          ...(namespace ? { namespace } : {}),
          ...(requirements ? { requirements } : {}),
        });
      }
      return store
        .cachedList<T>(kind, filter)
        .map(({ hub: h, object }) => ({ key: orderKey(h, object), hub: h, object }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    // async, so an unknown hub rejects like any other failure instead of throwing synchronously
    get: async (kind, ref) => getObject(hubOf(ref.hub), kind, ref),
    list: async (kind, hub, opts) => listObjects(hubOf(hub), kind, opts),
    create: async (kind, hub, obj, opts) => createObject(hubOf(hub), kind, obj, opts),
    mergePatch: async (kind, ref, patch, opts) => mergePatchObject(hubOf(ref.hub), kind, ref, patch, opts),
    replace: async (kind, ref, obj) => replaceObject(hubOf(ref.hub), kind, ref, obj),
    delete: async (kind, ref, opts) => deleteObject(hubOf(ref.hub), kind, ref, opts),

    waitFor<T extends KubeObject, R>(
      kind: CachedKind,
      ref: ObjectRef,
      test: (obj: T | undefined) => R | undefined,
      opts: { timeoutMs: number; signal?: AbortSignal },
    ): Promise<R> {
      if (!hubs.has(ref.hub)) return Promise.reject(new NotFound(`hub "${ref.hub}" is not configured`));
      return waiters.waitFor(
        kind,
        ref,
        () => cached(kind, ref),
        test as (obj: KubeObject | undefined) => R | undefined,
        opts,
      );
    },

    onChange: (kind, listener) => waiters.onChange(kind, listener as Parameters<typeof waiters.onChange>[1]),

    async recordEvent(kind, ref, event) {
      try {
        const hub = hubOf(ref.hub);
        const target = (CACHED_KINDS as readonly string[]).includes(kind) ? cached(kind as CachedKind, ref) : undefined;
        const involved = target ?? (await getObject(hub, kind, ref).catch(() => undefined));
        // Built once: every try sends the same name, so a try that landed although its answer was lost (a timeout,
        // a 5xx from a proxy) makes the next one AlreadyExists instead of a duplicate.
        await createEvent(hub, buildEvent(kind, ref, involved, event, clock), { clock });
      } catch (err) {
        log.warn(
          { hub: ref.hub, kind, name: ref.name, reason: event.reason, err: (err as Error).message },
          'could not record event',
        );
      }
    },

    reviewToken: async (hub, token, audiences) => reviewToken(hubOf(hub), token, audiences),

    hubRequests: () =>
      [...hubs.values()].map((hub) => {
        const { inFlight, window, throttled } = hub.gate.stats();
        return { hub: hub.name, inFlight, window, throttled };
      }),

    async close() {
      await Promise.all([...hubs.values()].map((hub) => hub.stop()));
    },
  };
  return store;
}
