// The one request path for every kind (paged-list.ts, kind-informer.ts, live-ops.ts, ...): plain JSON for any kind
// in the kind table, errors as client-node's ApiException, exactly as the generated clients throw them. Requests go
// through undici (hub-transport.ts); a kubeconfig whose cluster names a proxy-url keeps client-node's proxy agents
// and node-fetch (fetch-transport.ts).
import type { KubeConfig } from '@kubernetes/client-node';
import { createFetchSend } from './fetch-transport.js';
import type { Method, RestRequest } from './hub-request.js';
import { createHubSend } from './hub-transport.js';

export type { RestRequest } from './hub-request.js';

export interface RestClient {
  request<T>(method: Method, path: string, req?: RestRequest): Promise<T>;
}

/**
 * `kubeConfig` is asked on every request, so a request sent after the hub's credentials were reloaded uses the new
 * server, CA and token (new connections) while one already in flight finishes on the old ones.
 */
export function createRestClient(
  kubeConfig: () => KubeConfig,
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): RestClient {
  const direct = createHubSend(timeoutMs);
  let proxied: ReturnType<typeof createFetchSend> | undefined;
  return {
    request<T>(method: Method, path: string, req: RestRequest = {}): Promise<T> {
      const kc = kubeConfig();
      if (kc.getCurrentCluster()?.proxyUrl) return (proxied ??= createFetchSend(timeoutMs))<T>(kc, method, path, req);
      return direct<T>(kc, method, path, req);
    },
  };
}
