// Hub requests through undici's dispatcher (issue 14). The sweep's PATCH rate on a 2-core machine was bound by the
// client's CPU: client-node's applyToFetchOptions and node-fetch 2 cost ~130 µs of CPU per request (a Headers
// object and an https.Agent per call, the CA re-read, a promise chain, a stream per body). Here the credentials are
// worked out once per KubeConfig (hub-route.ts) and each request is one `dispatch` to a keep-alive undici Pool with
// a handler that collects the body's chunks: no streams, no Headers objects, one timer for the deadline.
//
// What stays as before: `Accept: application/json`, `User-Agent: beekeeper`, the Content-Type the caller names, a
// per-request deadline combined with the caller's AbortSignal (AbortError / TimeoutError, which map-error.ts reads
// as "timed out"), failures as client-node's ApiException(status, 'Unsuccessful HTTP Request', body text, headers
// with lower-case names; duplicates joined with ", "), so map-error.ts and the 429 / Retry-After gate read them
// unchanged. `Accept-Encoding: gzip` is sent, as node-fetch and client-go's transport send it: kube-apiserver
// compresses only answers over 128 KiB (a LIST page of a big hub; never a PATCH's), which matters over a WAN to a
// remote hub; such an answer is inflated off the event loop (zlib's thread pool).
//
// The response is resolved only when its last byte has arrived, and the pool marks the connection free before
// the caller's continuation runs, so sequential requests reuse one connection (request-gate.test.ts).
import { gunzip } from 'node:zlib';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';
import { serialize, withQuery, type HubSend } from './hub-request.js';
import { buildRoute, refreshRoute, type HubRoute } from './hub-route.js';

type Headers = Dispatcher.DispatchHandler extends { onResponseStart?(c: never, s: never, h: infer H): void }
  ? H
  : never;

/** One request's answer: collects the body, settles once (answer, failure or abort, whichever comes first). */
class Exchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Headers = {};
  private chunks: Buffer[] = [];
  private controller: Dispatcher.DispatchController | undefined;
  private abortedWith: Error | undefined;
  private timer: NodeJS.Timeout | undefined;
  private settled = false;
  /** Frees the connection for the pool's next request (hub-pool.ts). */
  release: () => void = () => {};

  constructor(
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (err: unknown) => void,
    timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => this.abort(timedOut()), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = () => this.abort(aborted(this.signal?.reason));

  private abort(err: Error) {
    if (this.settled) return;
    this.abortedWith = err;
    this.controller?.abort(err); // not yet on a connection: aborted when it gets one (onRequestStart)
    this.settle(err);
  }

  private settle(err: unknown, value?: unknown) {
    if (this.settled) return;
    this.settled = true;
    this.release();
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    if (err) this.reject(err);
    else this.resolve(value);
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    if (this.abortedWith) controller.abort(this.abortedWith);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Headers) {
    this.status = status;
    this.headers = headers;
    this.chunks = [];
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer) {
    this.chunks.push(chunk);
  }

  onResponseEnd() {
    const chunks = this.chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (this.headers['content-encoding'] !== 'gzip') return this.finish(body);
    gunzip(body, (err, inflated) => (err ? this.settle(err) : this.finish(inflated)));
  }

  private finish(body: Buffer) {
    const text = body.toString('utf8');
    if (this.status >= 200 && this.status < 300) {
      let value: unknown;
      try {
        value = text ? JSON.parse(text) : undefined;
      } catch (err) {
        return this.settle(err);
      }
      return this.settle(undefined, value);
    }
    this.settle(new ApiException(this.status, 'Unsuccessful HTTP Request', text, flatHeaders(this.headers)));
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error) {
    this.settle(this.abortedWith ?? hangUp(err));
  }
}

function flatHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/**
 * A connection closed before the answer (a partition, a server going away mid-request) is undici's SocketError
 * (UND_ERR_SOCKET); said as Node's http said it, "socket hang up" (ECONNRESET), so /v1/hubs and logs read as before.
 */
function hangUp(err: Error): Error {
  if ((err as { code?: unknown }).code !== 'UND_ERR_SOCKET') return err;
  return Object.assign(new Error(`socket hang up (${err.message})`, { cause: err }), { code: 'ECONNRESET' });
}

// The errors node-fetch and AbortSignal.timeout gave: map-error.ts tells them apart from a hub's answer by name.
const timedOut = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');
const aborted = (reason: unknown) =>
  Object.assign(new DOMException('The operation was aborted', 'AbortError'), { cause: reason });

/** Sends through undici, with one route (pool and credentials) per KubeConfig. */
export function createHubSend(timeoutMs: number, now: () => number = Date.now): HubSend {
  const routes = new WeakMap<KubeConfig, HubRoute | Promise<HubRoute>>();
  const routeFor = (kc: KubeConfig): HubRoute | Promise<HubRoute> => {
    const held = routes.get(kc);
    if (held) return held;
    const made = buildRoute(kc, now()).then(
      (route) => {
        routes.set(kc, route);
        return route;
      },
      (err: unknown) => {
        routes.delete(kc); // asked again next time, as client-node was asked on every request
        throw err;
      },
    );
    routes.set(kc, made);
    return made;
  };
  return async <T>(...[kc, method, path, req, sent]: Parameters<HubSend>): Promise<T> => {
    const held = routeFor(kc);
    // A route built while this request waited has just asked for the credentials: asking again at once ran an exec
    // plugin twice for the first request when its token came back already expired.
    const route = held instanceof Promise ? await held : held;
    if (route.refresh !== 'never' && !(held instanceof Promise)) await refreshRoute(route, kc, now());
    if (req.signal?.aborted) throw aborted(req.signal.reason);
    const body = req.body === undefined ? undefined : serialize(req.body);
    const headers =
      body === undefined ? route.headers : { ...route.headers, 'content-type': req.contentType ?? 'application/json' };
    const pool = route.pool;
    sent?.({ authorization: route.headers.authorization as string | undefined, cert: route.tls.cert });
    return new Promise<T>((resolve, reject) => {
      const exchange = new Exchange(resolve as (v: unknown) => void, reject, req.timeoutMs ?? timeoutMs, req.signal);
      pool.dispatch({ method, path: withQuery(route.basePath + path, req.query), headers, body }, exchange);
    });
  };
}
