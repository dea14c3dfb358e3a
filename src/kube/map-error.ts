// The one place Kubernetes failures become domain errors (ARCHITECTURE.md "Errors"). The API server answers with a
// `Status` object (kube-golden 08, 09, 13-16, 31); the client library hands its body over as raw text.
import { ApiException } from '@kubernetes/client-node';
import {
  Conflict,
  DomainError,
  WriteConflict,
  Forbidden,
  Invalid,
  NotFound,
  Unavailable,
  type FieldIssue,
} from '../hive/errors.js';

interface Status {
  kind?: string;
  reason?: string;
  message?: string;
  details?: { retryAfterSeconds?: number; causes?: Array<{ reason?: string; message?: string; field?: string }> };
}

function parseStatus(body: unknown): Status | undefined {
  if (typeof body === 'object' && body !== null) return body;
  if (typeof body !== 'string') return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function header(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const value = (headers as Record<string, unknown>)[name] ?? (headers as Record<string, unknown>)[name.toLowerCase()];
  return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}

/** Map an HTTP status and Status body from a hub to a domain error. `what` names the object for messages. */
export function fromStatus(code: number, body: unknown, headers: unknown, what: string): DomainError {
  const status = parseStatus(body);
  const message =
    status?.message ||
    (typeof body === 'string' && body.trim() && !body.trim().startsWith('{') ? body.trim() : `HTTP ${code}`);
  if (code === 404) {
    // An unknown resource answers a plain-text "404 page not found" (kube-golden 12): the kind is not served.
    return new NotFound(
      status?.kind === 'Status' ? message : `${what}: the hub does not serve this kind (CRD missing?)`,
    );
  }
  if (code === 409) return status?.reason === 'Conflict' ? new WriteConflict(message) : new Conflict(message);
  if (code === 400 || code === 415 || code === 422) {
    const fields: FieldIssue[] = (status?.details?.causes ?? [])
      .filter((c) => c.field)
      .map((c) => ({ field: c.field!, reason: c.message ?? c.reason ?? 'invalid' }));
    return new Invalid(message, fields);
  }
  if (code === 401 || code === 403) return new Forbidden(message);
  const asked = header(headers, 'retry-after');
  const retry = Number(asked ?? status?.details?.retryAfterSeconds);
  // The same signal the request gate pauses on (throttleSeconds below): a 429, or a 503 that says when to come back.
  const throttled = code === 429 || (code === 503 && asked !== undefined);
  return new Unavailable(`${what}: ${message}`, Number.isFinite(retry) && retry > 0 ? retry : 5, { throttled });
}

/** Any failure of a request to a hub, as a domain error. Programming errors pass through unchanged. */
export function toDomainError(err: unknown, what: string): unknown {
  if (err instanceof DomainError) return err;
  if (err instanceof ApiException) return fromStatus(err.code, err.body, err.headers, what);
  if (err instanceof Error) {
    const e = err as Error & { statusCode?: number; code?: string | number; type?: string };
    // Watch failures carry a plain statusCode (STACK.md §3d); fetch failures are FetchError/AbortError.
    if (typeof e.statusCode === 'number') return fromStatus(e.statusCode, undefined, undefined, what);
    if (
      e.name === 'FetchError' ||
      e.name === 'AbortError' ||
      e.name === 'TimeoutError' ||
      e.type === 'system' ||
      typeof e.code === 'string'
    ) {
      return new Unavailable(
        `${what}: hub unreachable (${e.name === 'AbortError' || e.name === 'TimeoutError' ? 'timed out' : (e.code ?? e.name)})`,
        5,
        {
          cause: err,
        },
      );
    }
  }
  return err;
}

/** kube-apiserver's APF never asks for more than 60 s (dropped_requests_tracker.go maxRetryAfter). */
const MAX_PAUSE_SECONDS = 60;

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in seconds from now; undefined when absent. */
function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - now) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

/**
 * The server's signal to back off (request-gate.ts): a 429, or a 503 with Retry-After, as the seconds to hold every
 * new request to that hub. A 429 without the header holds 1 s (what kube-apiserver's max-in-flight filter sends);
 * a longer wait than any kube-apiserver asks for is cut to 60 s, so a broken proxy cannot stall a hub for hours.
 * Anything else (another status, a network failure) is no such signal: undefined.
 */
export function throttleSeconds(err: unknown, now = Date.now()): number | undefined {
  if (!(err instanceof ApiException)) return undefined;
  if (err.code !== 429 && err.code !== 503) return undefined;
  const asked = retryAfterSeconds(header(err.headers, 'retry-after'), now);
  if (asked === undefined) return err.code === 429 ? 1 : undefined;
  return Math.min(asked, MAX_PAUSE_SECONDS);
}
