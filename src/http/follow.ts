// Following something until it settles, for jobs and claims alike: `?wait` long polls and Server-Sent Events.
// Both end when the caller hangs up and when the server starts closing. They must: server.close() waits for every
// open connection (a hijacked event stream is never idle), so one stream left open held an API's SIGTERM past the
// pod's grace period, and the pod was killed with all-in-one jobs not handed back.
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Aborts when the server starts closing (preClose): long polls and event streams answer at once. */
    closing: AbortSignal;
  }
}

/** Comment lines keep proxies from closing an idle event stream. */
const KEEPALIVE_MS = 15_000;

/** Aborts when the caller hangs up (the response's 'close') or the server starts closing. */
export function followSignal(reply: FastifyReply): AbortSignal {
  // By hand, not AbortSignal.any: the server's signal lives for the process, and the listener must go with the
  // response ('close' also fires once the answer is sent).
  const ctrl = new AbortController();
  const closing = reply.server.closing;
  if (closing.aborted) ctrl.abort();
  const stop = () => {
    closing.removeEventListener('abort', stop);
    ctrl.abort();
  };
  closing.addEventListener('abort', stop, { once: true });
  reply.raw.once('close', stop);
  return ctrl.signal;
}

/**
 * A long poll: what `wait` resolves with, or, once the server starts closing, what `now` reads then (the client
 * asks again, perhaps of another replica). `wait` gets a signal that also aborts when the caller hangs up, to stop
 * waiting for nobody; only `wait` decides what a hang-up answers (the answer goes nowhere).
 */
export async function longPoll<T>(
  reply: FastifyReply,
  wait: (signal: AbortSignal) => Promise<T>,
  now: () => Promise<T>,
): Promise<T> {
  const closing = reply.server.closing;
  if (closing.aborted) return now();
  let onAbort = () => undefined as void;
  const stopped = new Promise<T>((resolve, reject) => {
    onAbort = () => void now().then(resolve, reject);
    closing.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([wait(followSignal(reply)), stopped]);
  } finally {
    closing.removeEventListener('abort', onAbort);
  }
}

export interface EventStream {
  /** One `event: <event>` message with `data` as JSON; nothing once the stream has ended. */
  send(event: string, data: unknown): void;
  /** Ends the stream (idempotent). */
  end(): void;
}

/**
 * Answers with a Server-Sent Events stream: `follow` subscribes (sending on the stream, ending it when the thing
 * followed is done) and returns its unsubscribe. The stream ends when `follow` ends it, the caller hangs up, or the
 * server starts closing; then `atShutdown` may send a last message first. Resolves once the stream has ended.
 */
export async function streamEvents(
  reply: FastifyReply,
  opts: { follow: (stream: EventStream) => () => void; atShutdown?: (stream: EventStream) => Promise<void> },
): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const closing = reply.server.closing;
  await new Promise<void>((resolve) => {
    let unsubscribe: () => void = () => undefined;
    let ended = false;
    const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
    const stream: EventStream = {
      send: (event, data) =>
        void (ended || res.writableEnded || res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
      end: () => {
        if (ended) return;
        ended = true;
        closing.removeEventListener('abort', atShutdown);
        clearInterval(keepalive);
        unsubscribe();
        // The stream was sent with keep-alive: at shutdown close the connection too, or server.close() waits for it.
        if (closing.aborted && res.socket) {
          const socket = res.socket;
          res.once('finish', () => socket.destroy());
        }
        if (!res.writableEnded) res.end();
        resolve();
      },
    };
    const atShutdown = () => {
      const last = opts.atShutdown?.(stream) ?? Promise.resolve();
      void last.catch(() => undefined).finally(stream.end);
    };
    res.once('close', stream.end);
    if (closing.aborted) return atShutdown();
    closing.addEventListener('abort', atShutdown, { once: true });
    unsubscribe = opts.follow(stream);
    // follow may have ended the stream already (the thing followed was done): drop what it subscribed.
    if (ended) unsubscribe();
  });
}
