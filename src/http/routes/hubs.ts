// GET /v1/hubs: every configured hub, reachable or not, whether Hive's API is served, cache counts and informer
// health.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HiveStore } from '../../services/ports.js';
import { problemResponses } from '../schemas.js';
import { HubStatusSchema } from './cluster-schemas.js';

export function hubRoutes(deps: { store: Pick<HiveStore, 'hubStatus'> }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/hubs',
      {
        config: { access: { signedIn: true } },
        schema: {
          tags: ['hubs'],
          summary: 'Configured hubs: reachable, Hive CRDs present, cached object counts, informer health',
          response: { 200: Type.Object({ items: Type.Array(HubStatusSchema) }), ...problemResponses() },
        },
      },
      async () => ({ items: await deps.store.hubStatus() }),
    );
  };
}
