// The API description: OpenAPI 3.1 generated from the route schemas, served at /openapi.json and /docs, and
// committed as openapi/openapi.json (a test fails when the two drift; `npm run openapi` rewrites the file).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { OPERATION_IDS } from './operation-ids.js';

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
      // Relative: the document is served by the API it describes (paths start at /v1), wherever that listens.
      servers: [{ url: '/', description: 'This Beekeeper API (by default http://127.0.0.1:8080, set by PORT)' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (doc) =>
      'openapiObject' in doc
        ? nameBodies(shareTitledSchemas(doc.openapiObject as Record<string, unknown>))
        : doc.swaggerObject,
    // The dashboard and the docs are not part of the API.
    transform: ({ schema, url, route }) => {
      if (url.startsWith('/admin') || url.startsWith('/docs'))
        return { schema: { ...(schema ?? {}), hide: true }, url };
      if (!schema || schema.hide) return { schema, url };
      const operationId = OPERATION_IDS[`${[route.method].flat().join(',')} ${url}`];
      return { schema: operationId ? { ...schema, operationId } : schema, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * Route schemas are inlined (a TypeBox object used by many routes must not carry an `$id`, or Ajv refuses the
 * second registration); in the document, every schema with a `title` becomes one component referenced by `$ref`,
 * which keeps the committed file readable. A different schema reusing a title stays inline.
 */
function shareTitledSchemas(doc: Record<string, unknown>): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  const isSchema = (o: Record<string, unknown>) =>
    typeof o.title === 'string' && ('type' in o || 'anyOf' in o || 'properties' in o);
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const inner = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, walk(v, false)]));
    if (!top && isSchema(obj)) {
      const name = String(obj.title).replace(/[^A-Za-z0-9._-]/g, '');
      const text = JSON.stringify(inner);
      if (shared[name] === undefined) shared[name] = inner;
      if (JSON.stringify(shared[name]) === text) return { $ref: `#/components/schemas/${name}` };
    }
    return inner;
  };
  const paths = walk(doc.paths, false);
  const components = (doc.components ?? {}) as Record<string, unknown>;
  const schemas = { ...((components.schemas as Record<string, unknown>) ?? {}), ...shared };
  return {
    ...doc,
    paths,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}

type Content = Record<string, { schema?: Record<string, unknown> }>;
interface Operation {
  operationId?: string;
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content }>;
}

/**
 * Every request and response body a named component, for generated clients: a titled shape is already one (above);
 * any other is named for its operation (`SetClusterExpiryRequest`, `ListClustersResponse`, with the status code
 * when one operation answers different shapes).
 */
function nameBodies(doc: Record<string, unknown>): Record<string, unknown> {
  const components = doc.components as { schemas: Record<string, unknown> };
  const schemas = { ...components.schemas };
  const refTo = (candidates: string[], schema: Record<string, unknown>) => {
    const text = JSON.stringify(schema);
    const name = candidates.find((n) => schemas[n] === undefined || JSON.stringify(schemas[n]) === text)!;
    schemas[name] ??= schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  const name = (content: Content | undefined, candidates: string[]) => {
    for (const media of Object.values(content ?? {}))
      if (media.schema && !('$ref' in media.schema)) media.schema = refTo(candidates, media.schema);
  };
  const paths = structuredClone(doc.paths) as Record<string, Record<string, Operation>>;
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations)) {
      if (!op.operationId) continue; // a route missing from OPERATION_IDS (the committed-spec test fails on it)
      const base = op.operationId.charAt(0).toUpperCase() + op.operationId.slice(1);
      name(op.requestBody?.content, [`${base}Request`]);
      for (const [code, response] of Object.entries(op.responses ?? {}))
        name(response.content, [`${base}Response`, `${base}Response${code}`]);
    }
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...doc, paths, components: { ...components, schemas: sorted } };
}
