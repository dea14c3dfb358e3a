// One small request path for every kind. The generated per-group clients (CoreV1Api, CustomObjectsApi, ...) each
// take their own parameter shapes and deserialize core kinds into classes with Date fields; Beekeeper wants plain
// JSON for any kind in the kind table, so it borrows the generic client's plumbing (auth, TLS agent, middleware)
// and sends the request itself. Errors stay ApiException, exactly as the generated clients throw them.
import { ApiException, HttpMethod, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { Invalid } from '../hive/errors.js';

export interface RestRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RestClient {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, req?: RestRequest): Promise<T>;
}

/** JSON.stringify recurses: an object nested thousands deep would overflow the stack (a RangeError, then a 500). */
function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    if (err instanceof RangeError) throw new Invalid('the object is nested too deeply to send to the hub', [], { cause: err });
    throw err;
  }
}

class RawObjectApi extends KubernetesObjectApi {
  async send(method: HttpMethod, path: string, req: RestRequest, defaultTimeoutMs: number): Promise<unknown> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, method);
    ctx.setHeaderParam('Accept', 'application/json');
    // The API server names the field manager after the user agent when none is given (managedFields show it).
    ctx.setHeaderParam('User-Agent', 'beekeeper');
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) ctx.setQueryParam(k, String(v));
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? 'application/json');
      ctx.setBody(serialize(req.body));
    }
    const timeout = AbortSignal.timeout(req.timeoutMs ?? defaultTimeoutMs);
    ctx.setSignal(req.signal ? AbortSignal.any([req.signal, timeout]) : timeout);
    // The same auth steps the generated clients take (token, client certs and the TLS agent come from the KubeConfig).
    await this.configuration.authMethods.default?.applySecurityAuthentication(ctx);
    let pre = Promise.resolve(ctx);
    for (const m of this.configuration.middleware) pre = pre.then((c) => m.pre(c).toPromise());
    let response = await this.configuration.httpApi.send(await pre).toPromise();
    for (const m of this.configuration.middleware) response = await m.post(response).toPromise();
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) return text ? JSON.parse(text) : undefined;
    throw new ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', text, response.headers);
  }
}

export function createRestClient(kc: KubeConfig, { timeoutMs = 15_000 }: { timeoutMs?: number } = {}): RestClient {
  const api = kc.makeApiClient(RawObjectApi);
  return {
    request: async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, req: RestRequest = {}) =>
      (await api.send(HttpMethod[method], path, req, timeoutMs)) as T,
  };
}
