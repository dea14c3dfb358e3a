// GET /v1/hubs: every configured hub, reachable or not (since when, and the last error), whether Hive's API is
// served, cache counts and informer health. Reachability is the periodic probe's (at most 15 s old, `checkedAt`),
// so a call costs no request to the hubs; counts and informer health are read from memory as they are now.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HubHealthTracker } from '../../services/hubs/hub-health.js';
import { problemResponses } from '../schemas.js';
import { HubStatusSchema } from './hub-schemas.js';

export function hubRoutes(deps: { hubs: Pick<HubHealthTracker, 'current'> }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/hubs',
      {
        config: { access: { signedIn: true } },
        schema: {
          tags: ['hubs'],
          summary:
            'Configured hubs: reachable (since when, last error), Hive CRDs present, cached object counts, informer health',
          response: { 200: Type.Object({ items: Type.Array(HubStatusSchema) }), ...problemResponses() },
        },
      },
      async () => ({ items: deps.hubs.current() }),
    );
  };
}
