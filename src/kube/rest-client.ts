// One small request path for every kind. The generated per-group clients (CoreV1Api, CustomObjectsApi, ...) each
// take their own parameter shapes and deserialize core kinds into classes with Date fields; Beekeeper wants plain
// JSON for any kind in the kind table, so it takes the request options the KubeConfig gives any caller (auth headers,
// the TLS or proxy agent: the public applyToFetchOptions, which the client's own Watch uses) and sends the request
// with the fetch those options are made for (node-fetch 2 in client 1.x; client 2.x moves to undici's fetch).
// Errors stay ApiException, exactly as the generated clients throw them.
//
// Connections are reused: client-node 1.4 builds a new agent, without keep-alive, on every applyToFetchOptions call,
// so each request paid a TCP and TLS handshake. One keep-alive agent per KubeConfig (per credentials load) is built
// from the first of them and reused; a reload brings a new KubeConfig, hence a new agent on the new server, CA and
// client certificate. Proxy agents (a kubeconfig's proxy-url) are used as client-node makes them.
import http from 'node:http';
import https from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import fetch, { Headers } from 'node-fetch';
import { Invalid } from '../hive/errors.js';

export interface RestRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestClient {
  request<T>(method: Method, path: string, req?: RestRequest): Promise<T>;
}

/** JSON.stringify recurses: an object nested thousands deep would overflow the stack (a RangeError, then a 500). */
function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    if (err instanceof RangeError)
      throw new Invalid('the object is nested too deeply to send to the hub', [], { cause: err });
    throw err;
  }
}

/**
 * Idle connections close after this long: well below kube-apiserver's 90 s idle timeout (and Node servers' default
 * 5 s), so the client closes an idle connection first and no request goes out on one the server is closing (that
 * race fails the request with ECONNRESET).
 */
const IDLE_SOCKET_MS = 4_000;

type TlsOptions = Pick<https.AgentOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized'>;
const TLS_KEYS: ReadonlyArray<keyof TlsOptions> = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized'];

const same = (a: unknown, b: unknown) =>
  a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : String(a) === String(b) && a !== undefined);

interface Pooled {
  agent: http.Agent;
  made: TlsOptions;
}

/**
 * The keep-alive agent for this KubeConfig, or `fresh` itself when it is not a plain http(s) agent. An exec or OIDC
 * provider may hand out a new client certificate under the same KubeConfig: then the agent is built again.
 */
function reusable<A>(pool: WeakMap<KubeConfig, Pooled>, kc: KubeConfig, fresh: A): A | http.Agent {
  const kind =
    fresh?.constructor === https.Agent ? https.Agent : fresh?.constructor === http.Agent ? http.Agent : undefined;
  if (!kind) return fresh;
  const options = (fresh as { options: https.AgentOptions }).options;
  const held = pool.get(kc);
  if (held && TLS_KEYS.every((k) => same(held.made[k], options[k]))) return held.agent;
  // A replaced agent is left alone: its requests finish, its idle connections close after IDLE_SOCKET_MS.
  const agent = new kind({ ...options, keepAlive: true, scheduling: 'lifo', timeout: IDLE_SOCKET_MS });
  pool.set(kc, { agent, made: Object.fromEntries(TLS_KEYS.map((k) => [k, options[k]])) });
  return agent;
}

/**
 * `kubeConfig` is asked on every request, so a request sent after the hub's credentials were reloaded uses the new
 * server, CA and token while one already in flight finishes on the old ones.
 */
export function createRestClient(
  kubeConfig: () => KubeConfig,
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): RestClient {
  const agents = new WeakMap<KubeConfig, Pooled>();
  return {
    async request<T>(method: Method, path: string, req: RestRequest = {}): Promise<T> {
      const kc = kubeConfig();
      const cluster = kc.getCurrentCluster();
      if (!cluster) throw new Error('No active cluster!');
      const url = new URL(cluster.server + path);
      for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      // Token (refreshed by exec and OIDC providers) and client certificates, per request; the agent is reused.
      const init = await kc.applyToFetchOptions({});
      const headers = new Headers(init.headers);
      headers.set('Accept', 'application/json');
      // The API server names the field manager after the user agent when none is given (managedFields show it).
      headers.set('User-Agent', 'beekeeper');
      if (req.body !== undefined) headers.set('Content-Type', req.contentType ?? 'application/json');
      const timeout = AbortSignal.timeout(req.timeoutMs ?? timeoutMs);
      const response = await fetch(url.toString(), {
        method,
        headers,
        agent: reusable(agents, kc, init.agent),
        body: req.body === undefined ? undefined : serialize(req.body),
        signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
      });
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
      throw new ApiException(
        response.status,
        'Unsuccessful HTTP Request',
        text,
        Object.fromEntries(response.headers.entries()),
      );
    },
  };
}
