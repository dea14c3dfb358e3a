// Request input rules Fastify's defaults get wrong for a JSON API, so that bad input is a 4xx naming the problem.
import type { FastifyInstance, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import { problem, sendProblem } from './problem.js';
import { methodsOf, prependRouteHooks } from './route-hooks.js';

/**
 * How deep a JSON body may nest. The deepest body the API takes (a schedule's label selector expression values)
 * is six levels; every recursive walk of a body (the idempotency fingerprint, JSON.stringify on the way to the
 * hub) stays far from the stack limit, which a few thousand levels reach.
 */
export const MAX_JSON_DEPTH = 64;

/** True when brackets nest deeper than `max` outside strings; a linear scan, before the text is parsed. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The longest text a body may carry in one value or key: far above any name, pull secret, SSH key or service
 * account JSON the API takes, far below the 1 MiB body.
 */
export const MAX_BODY_STRING = 64 * 1024;

/** An unpaired UTF-16 surrogate: `"\ud800"` is valid JSON but no Unicode text, and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textIssue(text: string): string | undefined {
  if (text.length > MAX_BODY_STRING) return `longer than ${MAX_BODY_STRING} characters`;
  if (LONE_SURROGATE.test(text)) return 'not valid Unicode (an unpaired surrogate)';
  return undefined;
}

/** The strings and keys of a body that are too long or not Unicode, by dotted path (`windows[1].start`). */
function badStrings(value: unknown, path: string): Array<{ field: string; reason: string }> {
  if (typeof value === 'string') {
    const reason = textIssue(value);
    return reason ? [{ field: path || 'body', reason }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => badStrings(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const reason = textIssue(k);
    return reason ? [{ field: path || 'body', reason: `a key ${reason}` }] : badStrings(v, path ? `${path}.${k}` : k);
  });
}

/** Whether `values` holds a key `declared` (a schema's properties) does not; any key when nothing is declared. */
function hasUnknownKey(values: object, declared: object | undefined): boolean {
  for (const k in values) if (Object.hasOwn(values, k) && (!declared || !Object.hasOwn(declared, k))) return true;
  return false;
}

/** The first field of coerced query or path values that is a number but not a finite one. */
function nonFinite(values: unknown): string | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const k in values) {
    const v = (values as Record<string, unknown>)[k];
    if (Object.hasOwn(values, k) && typeof v === 'number' && !Number.isFinite(v)) return k;
  }
  return undefined;
}

// The hooks are callback-style: each runs on every request, and an async hook costs a promise and a microtask turn
// even when it only looks (issue 14: a cached GET's whole own work is a few of those). A hook that answers a
// problem does not call done(), which ends the request there.
export function installInputGuards(app: FastifyInstance): void {
  // Bodies are JSON only. Fastify also parses text/plain into a string, which then fails schema validation with a
  // puzzling "body must be object"; without the parser the client gets a 415 saying what to send.
  app.removeContentTypeParser('text/plain');

  // An empty body sent with `Content-Type: application/json` (common from HTTP libraries on POSTs such as
  // /hibernate) means no body, not malformed JSON. Anything else goes to Fastify's parser, which keeps its
  // __proto__ / constructor poisoning checks.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        Object.assign(new Error(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels, the most this API reads`), {
          statusCode: 400,
        }),
        undefined,
      );
    }
    return json(request, text, done);
  });

  // A NUL in the path or query names nothing anywhere; the queue dashboard's API (bull-board) failed on one in
  // `?status=` with a 500 (its error messages use NUL as a separator).
  app.addHook('onRequest', (request, reply, done) => {
    if (!/%00|\0/.test(request.url)) return done();
    sendProblem(reply, problem(400, 'BadRequest', 'the URL holds a NUL character (%00)'));
  });

  // The checks of a request's body and query are attached to the /v1 routes they apply to (from onRoute), not run
  // for every request: a GET carries no body (Fastify reads none for GET, HEAD and TRACE), and a hook that only
  // returns still costs a step of Fastify's hook chain (issue 14). They run before a route's own preValidation
  // hooks, as global hooks did, in this order.
  app.addHook('onRoute', (route) => {
    // Ajv coerces `?limit=1e400` to Infinity and then skips minimum/maximum for non-finite numbers (ajv 8), so a
    // huge value would pass validation: a route whose query or path may hold a number checks it is finite, first
    // of its preHandler hooks (installed after access.ts, so before its check, as the global hook this was).
    if (mayHoldNumber(route.schema?.querystring) || mayHoldNumber(route.schema?.params))
      prependRouteHooks(route, 'preHandler', [finiteNumbers]);
    if (!route.url.startsWith('/v1/')) return;
    const guards: preValidationHookHandler[] = [];
    if (methodsOf(route).some((m) => !BODYLESS.has(m))) {
      if (!route.schema?.body) guards.push(noBodyExpected);
      guards.push(boundedStrings);
    }
    guards.push(declaredQueryOnly((route.schema?.querystring as { properties?: object } | undefined)?.properties));
    prependRouteHooks(route, 'preValidation', guards);
  });
}

/** Methods whose requests Fastify never reads a body for. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

// An operation without a body schema takes no body: fields sent to it (`{"dryRun": true}` to a POST whose dryRun
// is a query parameter) would be silently ignored. An empty object is what many clients send for "no body".
const noBodyExpected: preValidationHookHandler = (request, reply, done) => {
  const body = request.body;
  if (body === undefined || body === null) return done();
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return done();
  const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [''];
  const reason = 'this operation takes no body';
  sendProblem(
    reply,
    problem(422, 'Invalid', `invalid body: ${fields.map((f) => f || 'body').join(', ')}: ${reason}`, {
      errors: fields.map((field) => ({ field, reason: field ? `unknown field: ${reason}` : reason })),
    }),
  );
};

// No text in a body is longer than MAX_BODY_STRING or broken Unicode: a 300 KB region or reason used to be
// written to the hub as it came (fields the schemas leave open, such as regions and user tags, have no
// maxLength of their own), and an unpaired surrogate in a namespace failed the hub call with a 500.
const boundedStrings: preValidationHookHandler = (request, reply, done) => {
  if (typeof request.body !== 'object' || !request.body) return done();
  const bad = badStrings(request.body, '');
  if (bad.length === 0) return done();
  sendProblem(
    reply,
    problem(422, 'Invalid', `invalid body: ${bad.map((b) => `${b.field}: ${b.reason}`).join('; ')}`, {
      errors: bad,
    }),
  );
};

// A query parameter the operation does not declare is refused, as an unknown body field is: a misspelt
// `?dryrun=true` on /schedules/x/run or /hibernate used to be ignored, and the action ran for real. `declared`: the
// route's query schema's properties, read once when the route is added.
const declaredQueryOnly =
  (declared: object | undefined): preValidationHookHandler =>
  (request, reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object') return done();
    // Looked at without allocating: nearly every request passes.
    if (!hasUnknownKey(query, declared)) return done();
    const unknown = Object.keys(query).filter((k) => !declared || !Object.hasOwn(declared, k));
    const reason = 'unknown query parameter';
    sendProblem(
      reply,
      problem(400, 'BadRequest', `invalid querystring: ${unknown.join(', ')}: ${reason}`, {
        errors: unknown.map((field) => ({ field, reason })),
      }),
    );
  };

/** Whether a schema (TypeBox's JSON Schema) lets a value be a number, at any depth: what Ajv may coerce to one. */
function mayHoldNumber(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const type = (schema as { type?: unknown }).type;
  if ([type].flat().some((t) => t === 'number' || t === 'integer')) return true;
  return Object.values(schema).some((v) => typeof v === 'object' && mayHoldNumber(v));
}

// Coerced query and path numbers must be finite.
const finiteNumbers: preHandlerHookHandler = (request, reply, done) => {
  const where = nonFinite(request.query) ? 'querystring' : nonFinite(request.params) ? 'params' : undefined;
  if (where === undefined) return done();
  const field = nonFinite(where === 'querystring' ? request.query : request.params)!;
  sendProblem(
    reply,
    problem(400, 'BadRequest', `invalid ${where}: ${field} must be a finite number`, {
      errors: [{ field, reason: 'must be a finite number' }],
    }),
  );
};
