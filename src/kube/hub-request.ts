// What every hub request is, whichever transport sends it (hub-transport.ts, fetch-transport.ts): its options, the
// JSON body guard, the headers every request carries and how long an idle connection stays open.
import type { KubeConfig } from '@kubernetes/client-node';
import { Invalid } from '../hive/errors.js';
import type { SentCredential } from './exec-credential.js';

export interface RestRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Sends one request with the credentials of one KubeConfig load; the body parsed as JSON. `sent` is told what the
 * request carried of the credentials, for a 401 to refuse that credential (rest-client.ts).
 */
export type HubSend = <T>(
  kc: KubeConfig,
  method: Method,
  path: string,
  req: RestRequest,
  sent?: (credential: SentCredential) => void,
) => Promise<T>;

/** JSON.stringify recurses: an object nested thousands deep would overflow the stack (a RangeError, then a 500). */
export function serialize(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    if (err instanceof RangeError)
      throw new Invalid('the object is nested too deeply to send to the hub', [], { cause: err });
    throw err;
  }
}

/** The API server names the field manager after the user agent when none is given (managedFields show it). */
export const USER_AGENT = 'beekeeper';

/**
 * Idle connections close after this long: well below kube-apiserver's 90 s idle timeout (and Node servers' default
 * 5 s), so the client closes an idle connection first and no request goes out on one the server is closing (that
 * race fails the request with ECONNRESET).
 */
export const IDLE_SOCKET_MS = 4_000;

/** `path` with the query appended, encoded as URLSearchParams encodes it (what the requests always sent). */
export function withQuery(path: string, query: RestRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const k in query) {
    const v = query[k];
    if (v !== undefined) params.set(k, String(v));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}
