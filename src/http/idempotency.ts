// `Idempotency-Key` on every POST: the first request with a key runs and its response is stored in Redis for a
// day; a retry with the same key, route and body gets the stored response; the same key with a different route
// or body is a client bug (422). A retry while the first is still running gets 409 (IETF draft
// "The Idempotency-Key HTTP Header Field", sections 2.6-2.7). Server errors are not stored, so they can be retried.
// Redis is the fast path. A request that creates something also records the key on it (in Kubernetes), so on a
// key Redis does not know (after a flush) the first answer is found there and replayed: its status and Location,
// the body rendered from the object as it is now.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RedisClient } from '../redis/connect.js';
import type { IdempotencyMark } from '../services/idempotency/mark.js';
import { MAX_JSON_DEPTH } from './input-guards.js';
import { problem, sendProblem } from './problem.js';
import { addRouteHook, methodsOf } from './route-hooks.js';

const TTL_SECONDS = 24 * 3600;
/**
 * How long a request in progress holds its key beyond its own `?wait`. Short, so that a key whose request never
 * finished (the API process crashed or was killed) is usable again in minutes, not after a day of 409s.
 */
const IN_PROGRESS_SECONDS = 120;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

interface Stored {
  fingerprint: string;
  status?: number;
  contentType?: string;
  location?: string;
  body?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
    /** Set for a request with a new key: what it records on what it creates. */
    idempotency?: IdempotencyMark;
  }
}

/** The first answer to a key, as Kubernetes remembers it. */
export interface DurableAnswer {
  fingerprint: string;
  answer(): Promise<{ status: number; location?: string; body: unknown }>;
}

/** Looks a key hash up in Kubernetes (informer caches). */
export type DurableKeys = (keyHash: string) => DurableAnswer | undefined;

/**
 * JSON with sorted keys, so `{a,b}` and `{b,a}` are the same body. Bodies nest at most MAX_JSON_DEPTH levels (the
 * parser refuses deeper ones); the bound is checked here too, so the recursion can never exhaust the stack.
 */
function canonical(value: unknown, depth = 0): string {
  if (depth > MAX_JSON_DEPTH)
    throw Object.assign(
      new Error(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels, the most this API reads`),
      { statusCode: 400 },
    );
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request target without `wait`: how long a caller is willing to block is not part of what it asks for, so a
 * retry with another `?wait=` is the same request and replays.
 */
function requestTarget(url: string): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.delete('wait');
  parsed.searchParams.sort();
  return `${parsed.pathname}${parsed.search}`;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export function installIdempotency(
  app: FastifyInstance,
  deps: { redis: RedisClient; prefix: string; durable?: DurableKeys },
): void {
  const hashOf = (request: FastifyRequest, key: string) => sha(`${request.principal}\n${key}`);

  // On POST routes only (installed last of the preHandler and onSend hooks, so route hooks keep their place).
  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY_FORMAT.test(key)) {
      return sendProblem(
        reply,
        problem(400, 'BadRequest', 'Idempotency-Key must be 1-255 visible ASCII characters', {
          errors: [{ field: 'Idempotency-Key', reason: 'must be 1-255 visible ASCII characters' }],
        }),
      );
    }
    const fingerprint = sha(`${request.method} ${requestTarget(request.url)}\n${canonical(request.body ?? null)}`);
    const keyHash = hashOf(request, key);
    const redisKey = `${deps.prefix}:idem:${keyHash}`;
    const wait = (request.query as { wait?: unknown } | undefined)?.wait;
    const holdSeconds =
      IN_PROGRESS_SECONDS + (typeof wait === 'number' && Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : 0);
    const claimed = await deps.redis.set(
      redisKey,
      JSON.stringify({ fingerprint } satisfies Stored),
      'EX',
      holdSeconds,
      'NX',
    );
    if (claimed === 'OK') {
      request.idempotencyKey = redisKey;
      const first = deps.durable?.(keyHash);
      if (first && first.fingerprint !== fingerprint) {
        request.idempotencyKey = undefined;
        await deps.redis.del(redisKey).catch(() => undefined);
        return sendProblem(
          reply,
          problem(422, 'Invalid', 'this Idempotency-Key was already used for a different request', {
            errors: [{ field: 'Idempotency-Key', reason: 'reused with a different route or body' }],
          }),
        );
      }
      // Gone since it was found (deleted a moment ago): the request runs as a new one.
      const answer = first ? await first.answer().catch(() => undefined) : undefined;
      if (!answer) {
        request.idempotency = { keyHash, fingerprint };
        return;
      }
      // Stored in Redis again by onSend, so the next retry takes the fast path.
      const { status, location, body } = answer;
      reply.code(status).header('idempotent-replayed', 'true');
      if (location) reply.header('location', location);
      return reply.send(body);
    }
    const raw = await deps.redis.get(redisKey);
    const stored = raw ? (JSON.parse(raw) as Stored) : undefined;
    if (!stored) {
      // Expired between SET and GET: treat as new next time; ask the client to retry now.
      return sendProblem(reply, problem(409, 'Conflict', 'the Idempotency-Key is being processed; retry the request'));
    }
    if (stored.fingerprint !== fingerprint) {
      return sendProblem(
        reply,
        problem(422, 'Invalid', 'this Idempotency-Key was already used for a different request', {
          errors: [{ field: 'Idempotency-Key', reason: 'reused with a different route or body' }],
        }),
      );
    }
    if (stored.status === undefined) {
      return sendProblem(
        reply,
        problem(409, 'Conflict', 'a request with this Idempotency-Key is still being processed; retry later'),
      );
    }
    reply.code(stored.status).header('idempotent-replayed', 'true');
    if (stored.contentType) reply.type(stored.contentType);
    if (stored.location) reply.header('location', stored.location);
    return reply.send(stored.body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    // Only a request that claimed its key gets here with it: a replay from Redis never does.
    const redisKey = request.idempotencyKey;
    if (!redisKey) return payload;
    request.idempotencyKey = undefined;
    if (reply.statusCode >= 500 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      await deps.redis.del(redisKey).catch(() => undefined);
      return payload;
    }
    const raw = await deps.redis.get(redisKey).catch(() => null);
    const fingerprint = raw ? (JSON.parse(raw) as Stored).fingerprint : undefined;
    if (fingerprint) {
      const stored: Stored = {
        fingerprint,
        status: reply.statusCode,
        body: payload.toString(),
        ...(reply.getHeader('content-type') ? { contentType: String(reply.getHeader('content-type')) } : {}),
        ...(reply.getHeader('location') ? { location: String(reply.getHeader('location')) } : {}),
      };
      await deps.redis.set(redisKey, JSON.stringify(stored), 'EX', TTL_SECONDS).catch(() => undefined);
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!methodsOf(route).includes('POST')) return;
    addRouteHook(route, 'preHandler', preHandler);
    addRouteHook(route, 'onSend', onSend);
  });
}
