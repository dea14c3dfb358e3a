// A Kubernetes API server double: real HTTP, the REST protocol client-node and kubectl speak, the semantics of
// kube-apiserver 1.26 as recorded in test/fixtures/kube-golden. Nothing is installed by default besides the built-in
// kinds and the usual namespaces; callers pass CRDs and admission hooks.
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../../clock.js';
import type { AdmissionHook } from './admission.js';
import { createFaults, type FaultSpec } from './faults.js';
import { createRegistry } from './registry.js';
import { createStore, type Store } from './store.js';
import { builtinResources } from './builtins.js';
import { schemaKindResources, type SchemaKind } from './schema-kinds.js';
import { crdResourceTypes, defaultCompiler, establishedStatus } from './crd.js';
import { createAuthenticator } from './auth.js';
import { createServiceAccountTokens } from './sa-tokens.js';
import type { Refusal, ServerContext } from './context.js';
import type { Identity } from './types.js';
import { createRequestHandler } from './server.js';
import { createObject } from './handlers/create.js';
import { systemRequest, rewrite } from './controllers/system-writes.js';
import { startGarbageCollector } from './controllers/garbage-collector.js';
import { startNamespaceController } from './controllers/namespace-controller.js';
import { formatTime } from './meta.js';
import { ApiError } from './status.js';
import { selfSignedCertificate } from './self-signed.js';

export type { AdmissionHook, AdmissionRequest, AdmissionResult } from './admission.js';
export type { FaultSpec, FaultMatch } from './faults.js';
export type { Store } from './store.js';
export type { SchemaKind } from './schema-kinds.js';

export interface ApiServerOptions {
  host?: string;
  port?: number;
  /** Admin token (group system:masters); random when absent. */
  token?: string;
  /** Extra identities, RBAC-checked. */
  users?: Array<{ token: string; username: string; groups?: string[] }>;
  clock?: Clock;
  /** CustomResourceDefinition objects installed at boot (Established). */
  crds?: object[];
  /**
   * More built-in kinds, each served from its Kubernetes OpenAPI schema (schema-kinds.ts): Deployments, Services and
   * the like, for validating manifests. The double has none of them otherwise.
   */
  kinds?: SchemaKind[];
  /** Validating admission, run after schema validation. */
  admission?: AdmissionHook[];
  faults?: FaultSpec;
  /**
   * An APF-like limit: beyond this many requests in flight (watches not counted) the server answers 429 with
   * `Retry-After: 1`, as kube-apiserver's max-in-flight filter does. Default: no limit.
   */
  maxInFlight?: number;
  /** Told of every Kubernetes API request once its answer is sent (not /_sim/ ones): load tests record them. */
  onRequest?: (r: RequestRecord) => void;
  /** What GET /_sim/metrics serves (Prometheus text); without it the endpoint answers an empty exposition. */
  metrics?: { render(): string };
  /**
   * Events each resource's watch cache keeps for watch resume (default 10,000; upstream grows it up to 102,400
   * while events are fresh). A watch from an older resourceVersion gets an in-band 410 (golden 59). etcd's own
   * history (LISTs at an older resourceVersion, continue tokens) keeps as many events across all resources.
   */
  watchHistory?: number;
  /**
   * The data of a previous server (its `store`), as etcd outlives a kube-apiserver restart: objects and
   * resourceVersions carry on, CRDs are served again, and the watch cache starts empty (older watches get 410).
   */
  store?: Store;
  /** Names the hub: the certificate's common name when tls is on. */
  name?: string;
  /**
   * Serve HTTPS with a fresh self-signed certificate (the kubeconfig skips verification). Needed for kubectl,
   * which never sends a bearer token over plain HTTP. Default false.
   */
  tls?: boolean;
  /**
   * The host other clients reach this server by (a container's service name, say): the kubeconfig's server
   * names it, and the certificate is valid for it too. Default: the listen address (127.0.0.1 for 0.0.0.0/::).
   */
  advertiseHost?: string;
}

/** One request as the server saw it; times are this process's `performance.now()`. */
export interface RequestRecord {
  method: string;
  path: string;
  code: number;
  arrivedAt: number;
  answeredAt: number;
}

export interface ApiServer {
  url: string;
  token: string;
  faults: { get(): FaultSpec; set(spec: FaultSpec): void; clear(): void };
  /**
   * A kubeconfig document (plain object) with one cluster/user/context named `contextName`; its server is the
   * advertised host, or `host` (e.g. 127.0.0.1 for a client on the machine that publishes the port).
   */
  kubeconfig(contextName: string, host?: string): Record<string, unknown>;
  /** The requests RBAC refused so far (the last 1000), oldest first. */
  refusals(): readonly Refusal[];
  /** What RBAC allowed a user so far, as `verb group/resource[/subresource]` (tokenreviews etc. included). */
  allowed(user: string): readonly string[];
  /**
   * An etcd compaction at the current revision: LISTs at an older resourceVersion and older continue tokens get
   * 410; watches still resume from the watch caches (golden 58).
   */
  compact(): void;
  /** Its data, to start a new server on (a restart). */
  store: Store;
  /** Kubernetes API requests received since start (not /_sim/ ones), watches included: proof a client sent none. */
  requestCount(): number;
  /** TCP connections accepted since start (TLS ones once their handshake is done): proof a client reuses them. */
  connectionCount(): number;
  /** The watch caches start over at the current revision, as after an API server restart: older watches get 410. */
  restartWatchCache(): void;
  close(): Promise<void>;
}

const BOOT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const token = opts.token ?? randomBytes(24).toString('hex');
  const tokens = new Map<string, Identity>([[token, { username: 'system:admin', groups: ['system:masters'] }]]);
  for (const u of opts.users ?? []) tokens.set(u.token, { username: u.username, groups: u.groups ?? [] });
  const registry = createRegistry();
  registry.add(builtinResources());
  registry.add(schemaKindResources(opts.kinds ?? []));
  const store =
    opts.store ??
    createStore({ historyLimit: opts.watchHistory ?? 10_000, watchCacheSize: opts.watchHistory ?? 10_000 });
  const faults = createFaults(opts.faults);
  const compile = defaultCompiler;
  const clock = opts.clock ?? systemClock;

  const ctx: ServerContext = {
    store,
    registry,
    clock,
    faults,
    metrics: opts.metrics,
    admission: opts.admission ?? [],
    tokens,
    saTokens: createServiceAccountTokens(store, clock),
    refusals: [],
    allowed: new Map(),
    ...(opts.maxInFlight ? { inFlight: { limit: opts.maxInFlight, current: 0 } } : {}),
    crdChanged(crd, removed) {
      const name = crd.metadata.name;
      registry.removeOwned(name);
      if (removed) {
        // Deleting a CRD deletes its custom resources.
        const storageKey = `${crd.spec.group}/${crd.spec.names.plural}`;
        for (const key of [...store.sortedKeys(storageKey)]) store.remove(storageKey, key);
        return;
      }
      if (crd.metadata.deletionTimestamp) return;
      const types = crdResourceTypes(crd, compile);
      registry.add(types, name);
      for (const t of types) store.startWatchCache(t.storageKey);
      if (!crd.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True')) {
        rewrite(ctx, 'apiextensions.k8s.io/customresourcedefinitions', name, (o) => {
          o.status = establishedStatus(o, formatTime(clock.now()));
        });
      }
    },
  };
  const stopGc = startGarbageCollector(ctx);
  const stopNs = startNamespaceController(ctx);

  const boot = async (resource: string, group: string, obj: any) => {
    const type = registry.lookup(group, 'v1', resource)!;
    const req = systemRequest(type, undefined, 'system:apiserver');
    req.userAgent = 'kube-apiserver/v1.26.5';
    req.body = JSON.stringify(obj);
    try {
      await createObject(ctx, req);
    } catch (err) {
      const detail = err instanceof ApiError ? JSON.stringify(err.body) : String(err);
      throw new Error(`cannot install ${resource} ${obj?.metadata?.name}: ${detail}`, { cause: err });
    }
  };
  if (opts.store) {
    const crds = 'apiextensions.k8s.io/customresourcedefinitions';
    for (const key of store.sortedKeys(crds)) ctx.crdChanged(store.get(crds, key)!.obj, false);
  } else {
    for (const ns of BOOT_NAMESPACES)
      await boot('namespaces', '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const crd of opts.crds ?? []) await boot('customresourcedefinitions', 'apiextensions.k8s.io', crd);
  }
  store.restartWatchCaches(); // the watch caches start after boot (or a restart): watching from an earlier version is 410 (golden 59)

  let received = 0;
  let connections = 0;
  const { onRequest } = opts;
  const listener = (req: Parameters<typeof handler>[0], res: Parameters<typeof handler>[1]) => {
    if (!req.url?.startsWith('/_sim/')) {
      received++;
      if (onRequest) {
        const arrivedAt = performance.now();
        let told = false;
        // As the answer is ended (before the client can have read it), or at 'close' when it never is (watches).
        const tell = () => {
          if (told) return;
          told = true;
          onRequest({
            method: req.method ?? 'GET',
            path: req.url ?? '/',
            code: res.statusCode,
            arrivedAt,
            answeredAt: performance.now(),
          });
        };
        const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
        res.end = ((...args: unknown[]) => {
          tell();
          return end(...args);
        }) as typeof res.end;
        res.once('close', tell);
      }
    }
    void handler(req, res);
  };
  const server = opts.tls
    ? createHttpsServer(
        { ...selfSignedCertificate(opts.name, opts.advertiseHost ? [opts.advertiseHost] : []), keepAlive: true },
        listener,
      )
    : createServer({ keepAlive: true }, listener);
  // kube-apiserver closes idle connections after 90 s (secure_serving.go IdleTimeout), not Node's 5 s: a client that
  // keeps connections alive for less never sends on one the server is closing.
  server.keepAliveTimeout = 90_000;
  server.on(opts.tls ? 'secureConnection' : 'connection', () => connections++);
  let address = '';
  const handler = createRequestHandler(ctx, {
    authenticate: createAuthenticator(tokens, ctx.saTokens),
    serverAddress: () => address,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address: listening } = server.address() as AddressInfo;
  // Listening on every address: this process and the machine's own clients come in over loopback.
  const host = listening === '0.0.0.0' ? '127.0.0.1' : listening === '::' ? '::1' : listening;
  const origin = (h: string) => `${opts.tls ? 'https' : 'http'}://${h.includes(':') ? `[${h}]` : h}:${port}`;
  address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = origin(host);

  return {
    url,
    token,
    faults: { get: () => faults.get(), set: (spec) => faults.set(spec), clear: () => faults.clear() },
    kubeconfig(contextName, serverHost = opts.advertiseHost ?? host) {
      return {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: contextName, cluster: { server: origin(serverHost), 'insecure-skip-tls-verify': true } }],
        users: [{ name: contextName, user: { token } }],
        contexts: [{ name: contextName, context: { cluster: contextName, user: contextName } }],
        'current-context': contextName,
      };
    },
    refusals: () => [...ctx.refusals],
    allowed: (user) => [...(ctx.allowed.get(user) ?? [])].sort(),
    compact: () => store.compact(),
    store,
    requestCount: () => received,
    connectionCount: () => connections,
    restartWatchCache: () => store.restartWatchCaches(),
    async close() {
      stopGc();
      stopNs();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
