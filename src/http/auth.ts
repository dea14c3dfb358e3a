// Sign-in at the edge: every request but the open paths presents `Authorization: Bearer <token>`, which the
// authenticators (src/auth) turn into a Caller on request.caller. With no authenticator and auth.open, every
// caller is OPEN_CALLER (a platform admin).
//
// A browser cannot send a bearer header when someone opens /admin/queues, so the dashboard also takes HTTP Basic
// (`<name>:<token>`, RFC 7617) and its 401 carries `WWW-Authenticate: Basic`, which makes the browser prompt and
// then send the credentials with every request under that path (the dashboard's own API calls and assets included).
import type { FastifyInstance } from 'fastify';
import { OPEN_CALLER, type Caller, type Identity } from '../auth/caller.js';
import type { Authenticator } from '../auth/static-tokens.js';
import { BOARD_PATH } from './board.js';
import { problem, sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who asks (src/auth/caller.ts); OPEN_CALLER when access is open. */
    caller: Caller;
    /** The caller's name, for logs and audit: caller.name. */
    principal: string;
  }
}

/** Paths that stay open: probes, /version, metrics (unless auth.metricsRequireToken) and the API description. */
const OPEN = /^\/(healthz|readyz|version|metrics|openapi\.json|docs)(\/|\?|$)/;
const OPEN_BUT_METRICS = /^\/(healthz|readyz|version|openapi\.json|docs)(\/|\?|$)/;
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

export interface AuthOptions {
  /** Tried in order; the first that knows the token signs the caller in. */
  authenticators: readonly Authenticator[];
  /** Identity → Caller with the configuration's teams (src/auth/resolve-caller.ts). */
  resolve: (identity: Identity) => Caller;
  /** No authenticators: everyone is OPEN_CALLER. */
  open: boolean;
  /** /metrics asks for a token like the API (auth.metricsRequireToken). */
  metricsRequireToken?: boolean;
}

/** Any sign-in's answer: static tokens answer at once, TokenReview and OIDC later. */
type Answer = Identity | undefined | Promise<Identity | undefined>;

const isPromise = (a: Answer): a is Promise<Identity | undefined> =>
  typeof (a as { then?: unknown } | undefined)?.then === 'function';

/**
 * The first authenticator, from `from` on, that knows the token; synchronous while they answer synchronously, so a
 * static token signs in without a promise. A sign-in that fails outright (a bug, an identity provider's surprise)
 * refuses this caller, never the server.
 */
function signIn(
  authenticators: readonly Authenticator[],
  token: string,
  warn: (err: unknown) => void,
  from = 0,
): Answer {
  const failed = (err: unknown) => {
    warn(err);
    return undefined;
  };
  for (let i = from; i < authenticators.length; i++) {
    let answer: Answer;
    try {
      answer = authenticators[i]!(token);
    } catch (err) {
      answer = failed(err);
    }
    if (isPromise(answer))
      return answer.catch(failed).then((identity) => identity ?? signIn(authenticators, token, warn, i + 1));
    if (answer) return answer;
  }
  return undefined;
}

export function installAuth(app: FastifyInstance, opts: AuthOptions): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('principal', 'anonymous');
  const open = opts.open || opts.authenticators.length === 0;
  // A static token's identity is one object while its entry stands (and TokenReview's while its answer is cached),
  // so its roles are resolved once, not on every request; the configuration they come from does not change.
  const callers = new WeakMap<Identity, Caller>();
  const callerOf = (identity: Identity): Caller => {
    let caller = callers.get(identity);
    if (!caller) {
      caller = opts.resolve(identity);
      callers.set(identity, caller);
    }
    return caller;
  };
  // Callback-style, and synchronous for static tokens (input-guards.ts says why).
  app.addHook('onRequest', (request, reply, done) => {
    request.caller = OPEN_CALLER;
    request.principal = OPEN_CALLER.name;
    if (open || (opts.metricsRequireToken ? OPEN_BUT_METRICS : OPEN).test(request.url)) return done();
    const board = BOARD.test(request.url);
    const creds = presented(request.headers.authorization ?? '', board);
    const decide = (identity: Identity | undefined): void => {
      if (identity && (creds!.name === undefined || creds!.name === identity.name)) {
        request.caller = callerOf(identity);
        request.principal = identity.name;
        return done();
      }
      // RFC 6750 §3.1: a presented token that is not accepted is `invalid_token`, whichever check refused it
      // (unknown, expired, wrong issuer or audience): the answer says no more than that.
      const challenge = board ? 'Basic realm="beekeeper"' : 'Bearer realm="beekeeper"';
      reply.header('www-authenticate', creds && !board ? `${challenge}, error="invalid_token"` : challenge);
      const detail = creds
        ? `the ${creds.scheme === 'Basic' ? 'name or token' : 'bearer token'} is not valid`
        : board
          ? 'send Authorization: Basic base64(<name>:<token>) (a browser asks for them) or Bearer <token>'
          : 'send Authorization: Bearer <token>';
      sendProblem(reply, problem(401, 'Unauthorized', detail));
    };
    if (!creds) return decide(undefined);
    const warn = (err: unknown) => request.log.warn({ err: (err as Error).message }, 'sign-in failed');
    const answer = signIn(opts.authenticators, creds.token, warn);
    if (isPromise(answer)) answer.then(decide, done);
    else decide(answer);
  });
}
