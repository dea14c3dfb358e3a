// Hub requests the way client-node 1.x sends them: the request options any KubeConfig gives (auth headers, the TLS
// or proxy agent: the public applyToFetchOptions, which the client's own Watch uses) and node-fetch 2. Beekeeper's
// hub requests go through undici (hub-transport.ts); this path is kept for a kubeconfig's proxy-url, whose HTTP,
// HTTPS and SOCKS proxy agents client-node builds, and as the baseline of bench/hub-client.ts.
//
// Connections are reused: client-node 1.4 builds a new agent, without keep-alive, on every applyToFetchOptions call,
// so each request paid a TCP and TLS handshake. One keep-alive agent per KubeConfig (per credentials load) is built
// from the first of them and reused; a reload brings a new KubeConfig, hence a new agent on the new server, CA and
// client certificate. Proxy agents are used as client-node makes them.
import http from 'node:http';
import https from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import fetch, { Headers } from 'node-fetch';
import { IDLE_SOCKET_MS, serialize, USER_AGENT, withQuery, type HubSend } from './hub-request.js';

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

/** Sends with node-fetch and the agent client-node makes for `kc` (kept alive and reused per KubeConfig). */
export function createFetchSend(timeoutMs: number): HubSend {
  const agents = new WeakMap<KubeConfig, Pooled>();
  return async <T>(...[kc, method, path, req, sent]: Parameters<HubSend>): Promise<T> => {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    // Token (refreshed by exec and OIDC providers) and client certificates, per request; the agent is reused.
    const init = await kc.applyToFetchOptions({});
    const headers = new Headers(init.headers);
    headers.set('Accept', 'application/json');
    headers.set('User-Agent', USER_AGENT);
    if (req.body !== undefined) headers.set('Content-Type', req.contentType ?? 'application/json');
    const agentOptions = (init.agent as { options?: { cert?: unknown } } | undefined)?.options;
    sent?.({ authorization: headers.get('Authorization') ?? undefined, cert: agentOptions?.cert });
    const timeout = AbortSignal.timeout(req.timeoutMs ?? timeoutMs);
    const response = await fetch(new URL(cluster.server + withQuery(path, req.query)).toString(), {
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
  };
}
