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
  request<T>(
    method: string,
    path: string,
    opts?: {
      body?: unknown;
      query?: Record<string, string | number | undefined>;
      signal?: AbortSignal;
      text?: boolean;
    },
  ): Promise<T>;
  /** Server-Sent Events: yields `{event, data}` until the stream ends or `signal` aborts. */
  events(path: string, signal: AbortSignal): AsyncGenerator<{ event: string; data: string }>;
  base: string;
}

export function createClient(opts: ClientOptions): Client {
  const base = opts.url.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const headersFor = (accept: string): Record<string, string> => ({
    accept,
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
  });
  return {
    base,
    async *events(path, signal) {
      const res = await doFetch(`${base}${path}`, { headers: headersFor('text/event-stream'), signal });
      if (!res.ok || !res.body) throw new ApiError(res.status, `${res.status} ${(await res.text()).slice(0, 200)}`);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        const frames = buffer.split('\n\n');
        buffer = frames.pop()!;
        for (const frame of frames) {
          const lines = frame.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (event) yield { event, data };
        }
      }
    },
    async request(method, path, { body, query, signal, text } = {}) {
      const qs = Object.entries(query ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&');
      const headers = headersFor(
        text ? 'application/yaml, text/plain, application/problem+json' : 'application/json, application/problem+json',
      );
      if (body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        throw new ApiError(
          0,
          `cannot reach Beekeeper at ${base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`,
        );
      }
      const raw = await res.text();
      if (!res.ok) {
        let problem:
          | { detail?: string; title?: string; code?: string; errors?: Array<{ field: string; reason: string }> }
          | undefined;
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
