// The CLI's HTTP client: fetch against the REST API, bearer token, problem+json errors turned into messages.

export interface ClientOptions {
  url: string;
  token?: string;
  fetch?: typeof fetch;
}

/** An answer from the API that is not a success: status and the problem's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: { code?: string; errors?: Array<{ field: string; reason: string }> },
  ) {
    super(message);
  }
}

export interface Client {
  request<T>(method: string, path: string, opts?: { body?: unknown; query?: Record<string, string | number | undefined>; signal?: AbortSignal; text?: boolean }): Promise<T>;
  base: string;
}

export function createClient(opts: ClientOptions): Client {
  const base = opts.url.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  return {
    base,
    async request(method, path, { body, query, signal, text } = {}) {
      const qs = Object.entries(query ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&');
      const headers: Record<string, string> = { accept: text ? 'application/yaml, text/plain, application/problem+json' : 'application/json, application/problem+json' };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        throw new ApiError(0, `cannot reach Beekeeper at ${base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
      }
      const raw = await res.text();
      if (!res.ok) {
        let problem: { detail?: string; title?: string; code?: string; errors?: Array<{ field: string; reason: string }> } | undefined;
        try {
          problem = JSON.parse(raw);
        } catch {
          problem = undefined;
        }
        const words = problem?.detail ?? problem?.title ?? (raw.slice(0, 200) || res.statusText);
        throw new ApiError(res.status, `${res.status} ${words}`, problem);
      }
      return (text ? raw : raw ? JSON.parse(raw) : undefined) as never;
    },
  };
}
