// The API description: OpenAPI 3.1 generated from the route schemas, served at /openapi.json and /docs, and
// committed as openapi/openapi.json (a test fails when the two drift; `npm run openapi` rewrites the file).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

export const API_INFO = {
  title: 'Beekeeper',
  version: 'v1',
  description:
    'Lifecycle automation for OpenShift Hive clusters across hubs: create, hibernate/resume, expiry, pools and claims. ' +
    'Long-running actions answer 202 with a job; add `?wait=<seconds>` to block until it ends. Errors are RFC 9457 problem+json.',
};

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: API_INFO,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // The dashboard and the docs are not part of the API.
    transform: ({ schema, url }) => ({
      schema: url.startsWith('/admin') || url.startsWith('/docs') ? { ...(schema ?? {}), hide: true } : schema,
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
