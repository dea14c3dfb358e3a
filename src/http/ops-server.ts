// The HTTP face of processes without the API (worker, scheduler): only /healthz, /readyz and /metrics, so that
// Kubernetes can probe them and Prometheus can scrape their job metrics. Never listens by itself.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { healthRoutes, type HealthDeps } from './routes/health.js';
import { clientErrorHandler } from './transport-errors.js';

export async function buildOpsServer(deps: HealthDeps & { log: Logger }): Promise<FastifyInstance> {
  const app = Fastify({
    // See server.ts: the cast fixes Fastify's logger type parameter.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: deps.log.child({ component: 'http' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler,
  });
  await app.register(healthRoutes(deps));
  await app.ready();
  return app;
}
