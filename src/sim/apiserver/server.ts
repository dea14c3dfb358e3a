// The HTTP front: authentication, routing, RBAC, fault injection, then the verb handlers; every failure becomes
// a Status (or the mux's plain-text 404).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, ApiResponse, ServerContext } from './context.js';
import { q, REFUSALS_KEPT } from './context.js';
import type { Identity } from './types.js';
import type { Verb } from './faults.js';
import { validateFaultSpec } from './faults.js';
import {
  ApiError,
  badRequest,
  forbidden,
  internalError,
  methodNotSupported,
  pageNotFound,
  statusBody,
  tooManyRequestsInFlight,
} from './status.js';
import { authorize } from './auth.js';
import { route, type Route } from './router.js';
import { bodyAsJson, readBody } from './request-body.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js';
import { openApiV3 } from './openapi.js';
import { createObject } from './handlers/create.js';
import { updateObject } from './handlers/update.js';
import { deleteObject } from './handlers/delete.js';
import { deleteCollection, getObject, listObjects } from './handlers/read.js';
import { watchObjects } from './handlers/watch.js';
import { createAccessReview } from './handlers/access-review.js';
import { createToken } from './handlers/token-request.js';
import { createTokenReview } from './handlers/token-review.js';
import { checkWriteOptions } from './request-options.js';
import { renderTable, tableRequestOf } from './table.js';

export interface FrontOptions {
  authenticate(authorization: string | undefined): Identity;
  serverAddress(): string;
}

function send(res: ServerResponse, r: ApiResponse, warnings: string[] = []) {
  if (res.headersSent) return;
  const payload = Buffer.isBuffer(r.body) ? r.body : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  // The only non-JSON answer is the mux's plain-text 404 (golden 12).
  const plain = typeof r.body === 'string' && !r.body.startsWith('{');
  const headers: Record<string, string | string[]> = {
    'content-type': plain ? 'text/plain; charset=utf-8' : 'application/json',
    'cache-control': 'no-cache, private',
    ...r.headers,
  };
  if (warnings.length) headers.warning = warnings;
  res.writeHead(r.code, headers);
  res.end(payload);
}

const errorResponse = (err: ApiError): ApiResponse => ({ code: err.code, body: err.body, headers: err.headers });

function verbOf(
  method: string,
  name: string | undefined,
  subresource: string | undefined,
  watch: boolean,
): Verb | undefined {
  switch (method) {
    case 'GET':
      return name ? 'get' : watch ? 'watch' : 'list';
    case 'POST':
      return !name || subresource === 'token' ? 'create' : undefined;
    case 'PUT':
      return name ? 'update' : undefined;
    case 'PATCH':
      return name ? 'patch' : undefined;
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

export function createRequestHandler(ctx: ServerContext, front: FrontOptions) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const warnings: string[] = [];
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw = await readBody(req);
      if (url.pathname === '/_sim/faults') return send(res, faultsEndpoint(ctx, front, req, raw.toString('utf8')));
      if (url.pathname === '/_sim/metrics') return send(res, metricsEndpoint(ctx, front, req));
      const who = front.authenticate(req.headers.authorization);
      const watch = ['true', '1'].includes(url.searchParams.get('watch') ?? '');
      // As kube-apiserver's max-in-flight filter, after authentication: long-running requests (watches) are not
      // counted. Unlike it, system:masters is not exempt: the simulator's clients mostly use its admin token.
      const limit = ctx.inFlight;
      if (limit && !watch) {
        if (limit.current >= limit.limit) throw tooManyRequestsInFlight();
        limit.current++;
        res.once('close', () => limit.current--);
      }
      const r = route(ctx.registry, url.pathname);
      const doc = req.method === 'GET' ? discovery(ctx, front, r, url.pathname) : undefined;
      if (doc) return send(res, { code: 200, body: doc });
      if (r.kind !== 'resource') throw pageNotFound();
      const { type, namespace, name, subresource } = r;
      const verb = verbOf(req.method ?? 'GET', name, subresource, watch);
      if (!verb)
        throw new ApiError(
          405,
          statusBody(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'),
        );
      const subresourceOk =
        !subresource ||
        (subresource === 'status' && type.statusSubresource) ||
        (subresource === 'scale' && !!type.scale) ||
        (subresource === 'finalize' && type.resource === 'namespaces' && !type.group);
      const tokenRequest =
        subresource === 'token' && type.resource === 'serviceaccounts' && !type.group && verb === 'create';
      if (!tokenRequest && (!subresourceOk || (subresource && !['get', 'update', 'patch'].includes(verb))))
        throw pageNotFound();
      if (type.namespaced && !namespace && !['list', 'watch'].includes(verb)) throw pageNotFound();
      if (!type.verbs.includes(verb)) throw methodNotSupported(q(type), verb);

      const refusal = authorize(ctx.store, who, {
        verb,
        group: type.group,
        resource: type.resource,
        subresource,
        // A Namespace is authorized in itself (apiserver's RequestInfoFactory: /namespaces/{name} sets the
        // namespace), so a RoleBinding in `foo` can grant `get namespaces` on `foo`.
        namespace: !type.group && type.resource === 'namespaces' && name ? name : namespace,
        name,
      });
      if (refusal) {
        ctx.refusals.push({ user: who.username, message: refusal });
        if (ctx.refusals.length > REFUSALS_KEPT) ctx.refusals.shift();
        throw forbidden(q(type), name, refusal);
      }
      if (!who.groups.includes('system:masters')) {
        const used = ctx.allowed.get(who.username) ?? new Set<string>();
        used.add(`${verb} ${type.group}/${type.resource}${subresource ? `/${subresource}` : ''}`);
        ctx.allowed.set(who.username, used);
      }

      const latency = ctx.faults.latencyFor(verb, type.resource);
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      const injected = ctx.faults.errorFor(verb, type.resource);
      if (injected) throw injected;

      const writeOptions = ({ create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions' } as const)[
        verb as 'create'
      ];
      if (writeOptions) checkWriteOptions(writeOptions, url.searchParams);
      // The custom resource handler warns on every request to a deprecated version (crdHandler.ServeHTTP).
      if (type.custom?.deprecationWarning) warnings.push(`299 - ${JSON.stringify(type.custom.deprecationWarning)}`);
      const apiReq: ApiRequest = {
        type,
        namespace,
        name,
        subresource,
        query: url.searchParams,
        who,
        userAgent: req.headers['user-agent'],
        contentType: req.headers['content-type'],
        dryRun: !!writeOptions && url.searchParams.getAll('dryRun').length > 0,
        warnings,
        body: bodyAsJson(raw, req.headers['content-type'], verb === 'create' || verb === 'update'),
      };
      const table =
        ['get', 'list', 'watch'].includes(verb) && !subresource
          ? tableRequestOf(req.headers.accept, url.searchParams)
          : undefined;
      if (verb === 'watch') return watchObjects(ctx, apiReq, table)(res);
      const handlers: Record<Exclude<Verb, 'watch'>, () => Promise<ApiResponse>> = {
        get: () => getObject(ctx, apiReq),
        list: () => listObjects(ctx, apiReq),
        create: () =>
          tokenRequest
            ? createToken(ctx, apiReq)
            : type.group === 'authorization.k8s.io'
              ? createAccessReview(ctx, apiReq)
              : type.group === 'authentication.k8s.io'
                ? createTokenReview(ctx, apiReq)
                : createObject(ctx, apiReq),
        update: () => updateObject(ctx, apiReq, 'update'),
        patch: () => updateObject(ctx, apiReq, 'patch'),
        delete: () => deleteObject(ctx, apiReq),
        deletecollection: () => deleteCollection(ctx, apiReq),
      };
      const answer = await handlers[verb]();
      if (table && answer.code === 200) {
        const body =
          typeof answer.body === 'object' && !Buffer.isBuffer(answer.body)
            ? answer.body
            : JSON.parse(answer.body.toString());
        const objects = verb === 'list' ? body.items : [body];
        const meta = verb === 'list' ? body.metadata : { resourceVersion: body.metadata?.resourceVersion };
        answer.body = renderTable(type, objects, meta, table, ctx.clock.now());
      }
      send(res, answer, warnings);
    } catch (err) {
      if (err instanceof ApiError) return send(res, errorResponse(err), warnings);
      send(res, errorResponse(internalError((err as Error)?.message ?? String(err))));
    }
  };
}

/** Discovery documents and OpenAPI are public (system:discovery / system:public-info-viewer bind them to everyone). */
function discovery(
  ctx: ServerContext,
  front: FrontOptions,
  r: Route,
  path: string,
): Record<string, unknown> | undefined {
  if (r.kind === 'version') return versionInfo;
  if (path.startsWith('/openapi/v3')) return openApiV3(ctx.registry, path) as Record<string, unknown> | undefined;
  if (r.kind === 'api') return apiVersions(front.serverAddress());
  if (r.kind === 'apis') return apiGroupList(ctx.registry);
  if (r.kind === 'group') return apiGroup(ctx.registry, r.group);
  if (r.kind === 'resources') return apiResourceList(ctx.registry, r.group, r.version);
  return undefined;
}

/** GET/PUT/DELETE /_sim/faults: the runtime fault switchboard, for the admin token only. */
function faultsEndpoint(ctx: ServerContext, front: FrontOptions, req: IncomingMessage, body: string): ApiResponse {
  const who = front.authenticate(req.headers.authorization);
  if (!who.groups.includes('system:masters')) {
    return { code: 403, body: statusBody(403, 'Forbidden', `User "${who.username}" cannot manage fault injection`) };
  }
  if (req.method === 'GET') return { code: 200, body: ctx.faults.get() as Record<string, unknown> };
  if (req.method === 'DELETE') {
    ctx.faults.clear();
    return { code: 200, body: {} };
  }
  if (req.method === 'PUT') {
    try {
      ctx.faults.set(validateFaultSpec(JSON.parse(body)));
    } catch (err) {
      return errorResponse(badRequest(`invalid fault spec: ${(err as Error).message}`));
    }
    return { code: 200, body: ctx.faults.get() as Record<string, unknown> };
  }
  return { code: 405, body: statusBody(405, 'MethodNotAllowed', 'use GET, PUT or DELETE') };
}

/** GET /_sim/metrics: the simulated controllers' counters in the Prometheus text format, for the admin token only. */
function metricsEndpoint(ctx: ServerContext, front: FrontOptions, req: IncomingMessage): ApiResponse {
  const who = front.authenticate(req.headers.authorization);
  if (!who.groups.includes('system:masters')) {
    return {
      code: 403,
      body: statusBody(403, 'Forbidden', `User "${who.username}" cannot read the simulator's metrics`),
    };
  }
  if (req.method !== 'GET') return { code: 405, body: statusBody(405, 'MethodNotAllowed', 'use GET') };
  return {
    code: 200,
    body: ctx.metrics?.render() ?? '',
    headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' },
  };
}
