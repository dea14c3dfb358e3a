// buildServer(): the whole HTTP edge as a Fastify instance that never listens (only src/main/ listens). Feature
// route plugins are registered under /v1: write paths relative to it (`/clusters`, not `/v1/clusters`).
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { BaseAdapter } from '@bull-board/api/baseAdapter';
import type { TeamDirectory } from '../auth/team-directory.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis/connect.js';
import { JOB_ID_MAX } from '../services/job-ids.js';
import type { HiveStore, JobQueue } from '../services/ports.js';
import { resolveCaller } from '../auth/resolve-caller.js';
import { staticTokens, type Authenticator } from '../auth/static-tokens.js';
import { installAccess } from './access.js';
import { systemClock, type Clock } from '../clock.js';
import { createAuditTrail } from '../services/audit/audit-trail.js';
import { installAuditTrail } from './audit-trail.js';
import { installAuth } from './auth.js';
import { installBoard } from './board.js';
import { installEdge, RateLimited, requestIdOf } from './edge.js';
import { installIdempotency, type DurableKeys } from './idempotency.js';
import { installInputGuards } from './input-guards.js';
import type { Metrics } from './metrics.js';
import { installOpenApi } from './openapi.js';
import { problem, retryAfterOf, sendProblem, toProblem } from './problem.js';
import { healthRoutes, type HealthDeps } from './routes/health.js';
import { jobRoutes } from './routes/jobs.js';
import { auditRoutes } from './routes/audit.js';
import { versionRoutes } from './routes/version.js';
import { readVersionInfo, type VersionInfo } from '../version.js';
import { clientErrorHandler, routerErrorHandler } from './transport-errors.js';
import { requestValidatorCompiler } from './validators.js';
import { lazyRequestLogger } from './request-logger.js';

export interface ServerDeps {
  config: Config;
  log: Logger;
  queue: JobQueue;
  store: HiveStore;
  /** Who owns what, for authorization (src/auth/team-directory.ts). */
  teams: TeamDirectory;
  metrics: Metrics;
  /** Feature routes (clusters, hubs, pools...), each registered under /v1. */
  routes: FastifyPluginAsync[];
  /** Fail-fast (producer) client: idempotency records and the readiness probe. */
  redis: RedisClient;
  /** bull-board adapters for /admin/queues (src/jobs BullJobQueue.boardQueues()). */
  queuesForBoard: readonly BaseAdapter[];
  /** /readyz: the last probe of each hub (informational) and the informers this process needs (routes/health.ts). */
  hubs?: HealthDeps['hubs'];
  ownState?: HealthDeps['ownState'];
  /** Sign-in (src/auth/sign-in.ts); default: the configuration's static tokens only. */
  authenticators?: readonly Authenticator[];
  /** Idempotency-Keys recorded in Kubernetes, for a key Redis does not know. */
  durableKeys?: DurableKeys;
  /** The time audit records carry; the system clock when absent. */
  clock?: Clock;
  /** What GET /version answers (src/version.ts); read from package.json and dist/build-info.json when absent. */
  version?: VersionInfo;
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const log = deps.log.child({ component: 'http' });
  const app = Fastify({
    // The cast fixes Fastify's logger type parameter (pino's Logger would leak into every plugin's type);
    // the lint rule sees only that the value is assignable.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: log as FastifyBaseLogger,
    // Requests are logged once, in onResponse below, with the route template and principal.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    // The client's X-Request-Id when sane (edge.ts), so its id follows the request through our logs.
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    // Every path segment the API hands out fits: names (253) and job ids, the longest of them.
    routerOptions: { maxParamLength: JOB_ID_MAX },
    // Returns the reply (a thenable), which Fastify handles; the option's type only says void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    frameworkErrors: routerErrorHandler(JOB_ID_MAX),
    clientErrorHandler,
  });
  app.setValidatorCompiler(requestValidatorCompiler());

  const closing = new AbortController();
  app.decorate('closing', closing.signal);
  app.addHook('preClose', async () => closing.abort());

  app.setErrorHandler((err, request, reply) => {
    if (err instanceof RateLimited) {
      log.debug({ reqId: request.id, principal: request.principal, limit: err.problem.limit }, 'rate limited');
      reply.header('retry-after', String(err.problem.retryAfterSeconds));
      return sendProblem(reply, err.problem);
    }
    const p = toProblem(err, request);
    if (p.code === 'InternalError') log.error({ err, reqId: request.id, url: request.url }, 'request failed');
    else log.debug({ reqId: request.id, code: p.code, detail: p.detail }, 'request refused');
    const retryAfter = retryAfterOf(err);
    if (p.status === 503 && retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return sendProblem(reply, p);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem(404, 'NotFound', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );

  // The hooks every request runs are callback-style: an async one costs a promise and a microtask turn each.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // An answer sent while closing (a long poll ended by the shutdown) closes its connection: server.close()
    // waits for every open one, and a keep-alive connection would hold it for the whole keep-alive timeout.
    if (closing.signal.aborted) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    deps.metrics.httpRequestDuration.observe(request.method, route, reply.statusCode, seconds);
    if (route.startsWith('/v1')) {
      log.info(
        {
          reqId: request.id,
          method: request.method,
          route,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          principal: request.principal,
        },
        'request',
      );
    }
    done();
  });

  await installEdge(app, { config: deps.config, redis: deps.redis });
  const authenticators =
    deps.authenticators ?? (deps.config.auth.tokens.length > 0 ? [staticTokens(deps.config.auth.tokens)] : []);
  if (authenticators.length === 0) log.warn({}, 'no sign-in configured: the API is open to anyone who can reach it');
  installAuth(app, {
    authenticators,
    open: deps.config.auth.open,
    metricsRequireToken: deps.config.auth.metricsRequireToken,
    resolve: (identity) => resolveCaller(identity, deps.config),
  });
  // One audit record per mutating request or secret read (docs/audit.md): a log line and an Event.
  installAuditTrail(app, {
    trail: createAuditTrail({
      store: deps.store,
      log: auditLog(deps.log),
      stateHub: deps.config.stateHub,
      stateNamespace: deps.config.stateNamespace,
    }),
    store: deps.store,
    teams: deps.teams,
    clock: deps.clock ?? systemClock,
    stateHub: deps.config.stateHub,
    stateNamespace: deps.config.stateNamespace,
  });
  // Before the Idempotency-Key hook: a refused request must not become a key's recorded answer.
  installAccess(app, { store: deps.store, teams: deps.teams });
  // After access: the route hooks each adds go first, so the input guards' run before its check.
  installInputGuards(app);
  installIdempotency(app, {
    redis: deps.redis,
    prefix: deps.config.redis.prefix,
    ...(deps.durableKeys ? { durable: deps.durableKeys } : {}),
  });
  await installOpenApi(app);

  await app.register(
    healthRoutes({
      store: deps.store,
      redis: deps.redis,
      metrics: deps.metrics,
      ...(deps.hubs ? { hubs: deps.hubs } : {}),
      ...(deps.ownState ? { ownState: deps.ownState } : {}),
    }),
  );
  await app.register(versionRoutes(deps.version ?? readVersionInfo()));
  await app.register(jobRoutes({ queue: deps.queue, ownership: { store: deps.store, teams: deps.teams } }), {
    prefix: '/v1',
  });
  await app.register(auditRoutes({ store: deps.store }), { prefix: '/v1' });
  for (const routes of deps.routes) await app.register(routes, { prefix: '/v1' });
  await installBoard(app, deps.queuesForBoard);

  await app.ready();
  return app;
}

/**
 * Audit lines are written at info whatever level the rest of the log is raised to (warn, error): only `silent`
 * turns them off.
 */
function auditLog(root: Logger): Logger {
  const child = root.child({ component: 'audit' });
  if (root.level !== 'silent' && !child.isLevelEnabled('info')) child.level = 'info';
  return child;
}
