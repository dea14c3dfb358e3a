// Token authentication for the API and the queue dashboard. Tokens are compared as SHA-256 digests with a
// constant-time comparison, so neither the token nor its length leaks through timing.
//
// The API takes `Authorization: Bearer <token>`. A browser cannot send a bearer header when someone opens
// /admin/queues, so the dashboard also takes HTTP Basic (`<name>:<token>`, RFC 7617) and its 401 carries
// `WWW-Authenticate: Basic`, which makes the browser prompt and then send the credentials with every request
// under that path (the dashboard's own API calls and assets included).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ApiToken } from '../config.js';
import { BOARD_PATH } from './board.js';
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
const BOARD = new RegExp(`^${BOARD_PATH}(/|\\?|$)`);

interface Presented {
  scheme: 'Bearer' | 'Basic';
  token: string;
  /** Basic only: the user name, which must be the token holder's name. */
  name?: string;
}

function presented(header: string, allowBasic: boolean): Presented | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return { scheme: 'Bearer', token: bearer[1]! };
  const basic = allowBasic ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { scheme: 'Basic', name: decoded.slice(0, colon), token: decoded.slice(colon + 1) } : undefined;
}

export function installAuth(app: FastifyInstance, tokens: readonly ApiToken[]): void {
  const known = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  app.decorateRequest('principal', 'anonymous');
  if (known.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    if (OPEN.test(request.url)) return;
    const board = BOARD.test(request.url);
    const creds = presented(request.headers.authorization ?? '', board);
    const sent = creds && digest(creds.token);
    const holder = sent && known.find((k) => timingSafeEqual(k.digest, sent));
    if (!holder || (creds.name !== undefined && creds.name !== holder.name)) {
      reply.header('www-authenticate', board ? 'Basic realm="beekeeper"' : 'Bearer realm="beekeeper"');
      const detail = creds
        ? `the ${creds.scheme === 'Basic' ? 'name or token' : 'bearer token'} is not valid`
        : board
          ? 'send Authorization: Basic base64(<name>:<token>) (a browser asks for them) or Bearer <token>'
          : 'send Authorization: Bearer <token>';
      return sendProblem(reply, problem(401, 'Unauthorized', detail));
    }
    request.principal = holder.name;
  });
}
