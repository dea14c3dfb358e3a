// The edge in front of every route (docs/edge.md): the request id, CORS for configured portal origins, security
// headers (OWASP's REST set on the API, helmet's on the browser pages), and a rate limit per caller shared by all
// API replicas through Redis. Installed before sign-in so that a CORS preflight (which carries no credentials) is
// answered and every answer, a 401 too, has the headers.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config.js';
import type { RedisClient } from '../redis/connect.js';
import { problem, type Problem } from './problem.js';

/** A client's X-Request-Id is kept when it is short and plain (it goes into logs and answers as is). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** Fastify's genReqId: the client's X-Request-Id when sane, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Probes, metrics and /version are read by the platform at its own pace (a rollout check polls it): never limited. */
const EXEMPT = /^\/(healthz|readyz|version|metrics)(\/|\?|$)/;

/** Thrown by the rate limit; server.ts answers it with its own problem (429, the limit, Retry-After). */
export class RateLimited extends Error {
  readonly statusCode = 429;
  constructor(readonly problem: Problem & { limit: number; retryAfterSeconds: number }) {
    super(problem.detail);
    this.name = 'RateLimited';
  }
}

// Same-origin everything; inline styles for the two pages that use them (Swagger UI at /docs, bull-board at
// /admin/queues, which sets its own equivalent policy); no upgrade-insecure-requests, as the embedded demo is
// plain http on loopback. HSTS belongs to whatever terminates TLS (the Route or Ingress), not to this process.
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  upgradeInsecureRequests: null,
};

/**
 * The headers of every answer but the browser pages': OWASP's set for REST APIs (REST Security Cheat Sheet,
 * "Security headers"), which is what a JSON answer needs: never stored by a cache or proxy (kubeconfigs and
 * credentials are JSON answers too), never framed, never rendered as anything but its content type. HSTS is left
 * to the TLS terminator, as for the pages. Helmet's other headers govern how a browser treats a document (its
 * referrer, opener, origin cluster, DNS prefetching, IE downloads, Flash policy files, the XSS auditor) and do
 * nothing on an answer that is not one, yet every client parses them on every answer (issue 14: with them a single
 * GET cost the client 26 us of CPU against 21 for the API server's 6-header answer, and the server as much again).
 * A route that sets its own Cache-Control replaces this one; an event stream writes its own headers (follow.ts)
 * and gets none of these.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** The pages a browser renders (Swagger UI and its assets, the queue dashboard): helmet's full set for them. */
const BROWSER_PAGES = /^\/(docs|admin\/queues)(\/|\?|$)/;

/**
 * Helmet's security headers, for the browser pages, computed once: they depend on the configuration only (no CSP
 * nonces), whereas @fastify/helmet built the middleware and parsed the CSP directives again on every request, a
 * fifth of the CPU a single GET /v1/clusters/{hub}/{namespace}/{name} cost.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => undefined,
  };
  let failed: unknown;
  helmet({ contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES }, strictTransportSecurity: false })(
    {} as IncomingMessage,
    res as unknown as ServerResponse,
    (err?: unknown) => {
      failed = err;
    },
  );
  if (failed !== undefined || Object.keys(headers).length === 0) throw new Error(`helmet: ${String(failed)}`);
  return headers;
}

export async function installEdge(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'edge' | 'redis'>; redis: RedisClient },
): Promise<void> {
  const { corsOrigins, rateLimit: limit } = deps.config.edge;
  if (corsOrigins.length > 0) {
    await app.register(cors, {
      origin: [...corsOrigins],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining'],
      // Bearer tokens, not cookies: browsers need not send credentials.
      credentials: false,
      maxAge: 600,
    });
  }
  const pages = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(BROWSER_PAGES.test(request.url) ? pages : API_SECURITY_HEADERS);
    done();
  });
  if (limit.perMinute === 0) return;
  await app.register(rateLimit, {
    global: true,
    // After sign-in (onRequest), before the body is read: a caller over the limit costs no parsing.
    hook: 'preParsing',
    max: limit.perMinute,
    timeWindow: 60_000,
    // Shared by every API replica; the prefix keeps the keys in Beekeeper's Redis Cluster slot.
    redis: deps.redis,
    nameSpace: `${deps.config.redis.prefix}:rate-limit:`,
    // Redis down: the API still answers (what needs Redis fails on its own with 503).
    skipOnError: true,
    keyGenerator: (req) => (req.caller && req.caller.via !== 'open' ? `caller:${req.caller.name}` : `ip:${req.ip}`),
    allowList: (req) => EXEMPT.test(req.url),
    enableDraftSpec: true,
    errorResponseBuilder: (req, ctx) => {
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
      const who = req.caller && req.caller.via !== 'open' ? req.caller.name : 'this client address';
      const p = problem(
        429,
        'TooManyRequests',
        `more than ${ctx.max} requests a minute by ${who}; retry in ${seconds}s`,
      );
      return new RateLimited({ ...p, limit: ctx.max, retryAfterSeconds: seconds });
    },
  });
}
