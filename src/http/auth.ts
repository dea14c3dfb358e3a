// Bearer-token authentication for the API and the queue dashboard. Tokens are compared as SHA-256 digests with
// a constant-time comparison, so neither the token nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ApiToken } from '../config.js';
import { problem, sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Name of the token holder; `anonymous` when the API is open. */
    principal: string;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Paths that stay open: probes, metrics and the API description. */
const OPEN = /^\/(healthz|readyz|metrics|openapi\.json|docs)(\/|\?|$)/;

export function installAuth(app: FastifyInstance, tokens: readonly ApiToken[]): void {
  const known = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  app.decorateRequest('principal', 'anonymous');
  if (known.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (OPEN.test(request.url)) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const presented = match ? digest(match[1]!) : undefined;
    const holder = presented && known.find((k) => timingSafeEqual(k.digest, presented));
    if (!holder) {
      reply.header('www-authenticate', 'Bearer realm="beekeeper"');
      return sendProblem(reply, problem(401, 'Unauthorized', match ? 'the bearer token is not valid' : 'send Authorization: Bearer <token>'));
    }
    request.principal = holder.name;
  });
}
