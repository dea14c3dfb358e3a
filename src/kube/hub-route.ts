// Where a hub request goes and with what credentials, worked out once per KubeConfig (one credentials load,
// hub-credentials.ts) rather than on every request: client-node's applyToHTTPSOptions reads the CA and client
// certificate (from files, for in-cluster hubs), builds an https.Agent and assembles headers each time it is asked.
// Static credentials (a bearer token, a kubeconfig's token-file, basic auth, a client certificate, the CA,
// insecure-skip-tls-verify, tls-server-name, impersonation) are asked for once. Tokens that refresh are asked for
// again: an exec or OIDC auth provider's on every request (client-node caches them until they expire; an exec
// credential without an expirationTimestamp is kept until the hub answers 401, exec-credential.ts), the in-cluster
// token file's (client-node's FileAuth re-reads it every 60 s) at most
// once a second. A client certificate that changes under the same KubeConfig (an exec plugin may hand out
// certificates) gets a new pool.
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { HubPool } from './hub-pool.js';
import { IDLE_SOCKET_MS, USER_AGENT } from './hub-request.js';

type Tls = Pick<
  https.RequestOptions,
  'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'
>;
const TLS_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

export interface HubRoute {
  readonly origin: string;
  /** The server URL's path (a server behind a path-routing proxy has one), before every request's path. */
  readonly basePath: string;
  /** One connection pool per KubeConfig (per client certificate, when an exec plugin changes it). */
  pool: HubPool;
  /** Accept, User-Agent and the credentials' headers (lower-case names); never mutated once made, only replaced. */
  headers: Record<string, string | string[]>;
  tls: Tls;
  /** When the credentials were last asked for (ms), and how often they must be asked again. */
  askedAt: number;
  readonly refresh: 'never' | 'second' | 'always';
  /** The ask in progress, which requests sent meanwhile wait for rather than asking too. */
  asking?: Promise<void>;
}

interface Asked {
  headers: Record<string, string | string[]>;
  tls: Tls;
}

/** The headers and TLS options client-node applies to a request for `kc` (refreshing a token where it refreshes). */
async function ask(kc: KubeConfig): Promise<Asked> {
  const opts: https.RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  const headers: Record<string, string | string[]> = {};
  // A list stays a list: one header line per value (Impersonate-Group, impersonation.ts), as the API server reads it.
  for (const [name, value] of Object.entries(opts.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  // As applyToFetchOptions does: basic auth (a username and password in the kubeconfig) wins over a token.
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  // Set last: the same on every request, whatever the credentials' headers said.
  headers.accept = 'application/json';
  headers['accept-encoding'] = 'gzip'; // hub-transport.ts inflates it
  headers['user-agent'] = USER_AGENT;
  return { headers, tls: Object.fromEntries(TLS_KEYS.map((k) => [k, opts[k]])) };
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : String(a) === String(b) && a !== undefined);
const sameTls = (a: Tls, b: Tls) => TLS_KEYS.every((k) => sameValue(a[k], b[k]));

function poolFor(origin: string, tls: Tls): HubPool {
  // As many connections as requests in flight, like http.Agent's default: the gateway's window is the limit.
  return new HubPool(origin, {
    pipelining: 1,
    keepAliveTimeout: IDLE_SOCKET_MS,
    keepAliveMaxTimeout: IDLE_SOCKET_MS,
    // A server's own Keep-Alive hint (Node servers send timeout=5) less this margin, if shorter than the above.
    keepAliveTimeoutThreshold: 1_000,
    connect: { ...Object.fromEntries(TLS_KEYS.filter((k) => tls[k] !== undefined).map((k) => [k, tls[k]])) },
  });
}

/** True when the user's token refreshes: client-node must be asked again for it. */
function refreshOf(kc: KubeConfig): HubRoute['refresh'] {
  const user = kc.getCurrentUser();
  if (!user?.exec && !user?.authProvider) return 'never';
  const config = user.authProvider?.config as Record<string, unknown> | undefined;
  return !user.exec && user.authProvider?.name === 'tokenFile' && config?.tokenFile ? 'second' : 'always';
}

export async function buildRoute(kc: KubeConfig, now: number): Promise<HubRoute> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('No active cluster!');
  const asked = await ask(kc); // throws as client-node does (http:// without insecure-skip-tls-verify)
  const url = new URL(cluster.server);
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    pool: poolFor(url.origin, asked.tls),
    headers: asked.headers,
    tls: asked.tls,
    askedAt: now,
    refresh: refreshOf(kc),
  };
}

/**
 * Asks client-node again where the token refreshes; a changed certificate or CA gets a new pool. Requests sent while
 * an ask is in progress wait for it: client-node's exec and OIDC providers have no such guard, so every request of a
 * burst that finds the token expired (a sweep's 32 in flight) would run the exec plugin (`aws eks get-token`, a
 * second of CPU each) or refresh the OIDC token at once, where client-go's exec authenticator holds one refresh
 * under a lock (plugin/pkg/client/auth/exec).
 */
export async function refreshRoute(route: HubRoute, kc: KubeConfig, now: number): Promise<void> {
  if (route.asking) return route.asking;
  if (route.refresh === 'never' || (route.refresh === 'second' && now - route.askedAt < 1_000)) return;
  route.asking = reask(route, kc, now).finally(() => (route.asking = undefined));
  return route.asking;
}

async function reask(route: HubRoute, kc: KubeConfig, now: number): Promise<void> {
  const asked = await ask(kc);
  route.askedAt = now;
  route.headers = asked.headers;
  if (sameTls(route.tls, asked.tls)) return;
  // The replaced pool is left alone: its requests finish, its idle connections close after IDLE_SOCKET_MS.
  route.pool = poolFor(route.origin, asked.tls);
  route.tls = asked.tls;
}
