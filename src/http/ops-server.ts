// The HTTP face of processes without the API (worker, scheduler): only /healthz, /readyz, /metrics and /version, so
// that Kubernetes can probe them, Prometheus can scrape their job metrics and a rollout can be checked. Never listens by itself.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { healthRoutes, type HealthDeps } from './routes/health.js';
import { clientErrorHandler } from './transport-errors.js';
import { versionRoutes } from './routes/version.js';
import { readVersionInfo, type VersionInfo } from '../version.js';

export async function buildOpsServer(
  deps: HealthDeps & { log: Logger; version?: VersionInfo },
): Promise<FastifyInstance> {
  const app = Fastify({
    // See server.ts: the cast fixes Fastify's logger type parameter.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: deps.log.child({ component: 'http' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler,
  });
  await app.register(healthRoutes(deps));
  await app.register(versionRoutes(deps.version ?? readVersionInfo()));
  await app.ready();
  return app;
}
