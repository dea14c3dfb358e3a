/** A non-2xx answer from the API server, carrying the Kubernetes `Status` body when there is one. */
export class KubeApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: Record<string, any> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, status: Record<string, any> | undefined, text: string, retryAfterSeconds?: number) {
    super(status?.message ?? `HTTP ${code}: ${text.slice(0, 200)}`);
    this.name = 'KubeApiError';
    this.code = code;
    this.reason = status?.reason ?? '';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof KubeApiError && e.code === 404;
export const isConflict = (e: unknown): boolean =>
  e instanceof KubeApiError && e.code === 409 && e.reason !== 'AlreadyExists';
