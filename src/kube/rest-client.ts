// The one request path for every kind (paged-list.ts, kind-informer.ts, live-ops.ts, ...): plain JSON for any kind
// in the kind table, errors as client-node's ApiException, exactly as the generated clients throw them. Requests go
// through undici (hub-transport.ts); a kubeconfig whose cluster names a proxy-url keeps client-node's proxy agents
// and node-fetch (fetch-transport.ts).
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import type { SentCredential } from './exec-credential.js';
import { createFetchSend } from './fetch-transport.js';
import type { HubSend, Method, RestRequest } from './hub-request.js';
import { createHubSend } from './hub-transport.js';
import { HubKubeConfig } from './hub-kubeconfig.js';

export type { RestRequest } from './hub-request.js';

export interface RestClient {
  request<T>(method: Method, path: string, req?: RestRequest): Promise<T>;
}

/**
 * `kubeConfig` is asked on every request, so a request sent after the hub's credentials were reloaded uses the new
 * server, CA and token (new connections) while one already in flight finishes on the old ones.
 *
 * A 401 to a request that carried an exec plugin's credential is sent once more, after the plugin has run again (one
 * run for all the requests refused together), as client-go's exec authenticator does: a credential without an
 * expiry is kept until the hub refuses it (exec-credential.ts).
 */
export function createRestClient(
  kubeConfig: () => KubeConfig,
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): RestClient {
  const direct = createHubSend(timeoutMs);
  let proxied: HubSend | undefined;
  return {
    request<T>(method: Method, path: string, req: RestRequest = {}): Promise<T> {
      const kc = kubeConfig();
      const send = kc.getCurrentCluster()?.proxyUrl ? (proxied ??= createFetchSend(timeoutMs)) : direct;
      if (!(kc instanceof HubKubeConfig) || !kc.hasExecPlugin()) return send<T>(kc, method, path, req);
      return sendAgainOn401(send, kc, method, path, req);
    },
  };
}

async function sendAgainOn401<T>(
  send: HubSend,
  kc: HubKubeConfig,
  method: Method,
  path: string,
  req: RestRequest,
): Promise<T> {
  let carried: SentCredential = {};
  try {
    return await send<T>(kc, method, path, req, (c) => (carried = c));
  } catch (err) {
    if (!(err instanceof ApiException) || err.code !== 401 || !kc.credentialRefused(carried)) throw err;
    return send<T>(kc, method, path, req);
  }
}
