// GET /v1/me (who am I), GET /v1/teams and /v1/teams/{name} (the caller's teams with their quotas and what they hold
// now). Any signed-in caller may ask; each answer is scoped to the caller in the handler (a team the caller does
// not belong to is a 404, as a missing one), hence `access: in-handler` for the declarative access check.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TeamDirectory } from '../../auth/team-directory.js';
import type { HiveStore } from '../../services/ports.js';
import { getTeam, listTeams } from '../../services/quotas/team-views.js';
import { problemResponses } from '../schemas.js';
import { inHandler as inHandlerOf } from './team-scoped.js';
import { MeSchema, TeamNameParams, TeamViewSchema } from './team-schemas.js';

const inHandler = inHandlerOf('answers for the caller only: its own identity, its own teams');

export function teamRoutes(deps: { store: Pick<HiveStore, 'cachedList'>; teams: TeamDirectory }): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['teams'];

    app.get(
      '/me',
      {
        config: inHandler,
        schema: {
          tags,
          summary: 'Who am I: the signed-in name, how, groups, team roles and whether a platform admin (never a token)',
          response: { 200: MeSchema, ...problemResponses() },
        },
      },
      async (req) => {
        const { name, via, groups, subject, grants, platformAdmin } = req.caller;
        return { name, via, groups: [...groups], subject, grants: [...grants], platformAdmin };
      },
    );

    app.get(
      '/teams',
      {
        config: inHandler,
        schema: {
          tags,
          summary:
            "The caller's teams (a platform admin: every team): namespaces, pools, quotas and current usage from the cache",
          response: { 200: Type.Object({ items: Type.Array(TeamViewSchema) }), ...problemResponses() },
        },
      },
      async (req) => ({ items: listTeams(deps, req.caller) }),
    );

    app.get(
      '/teams/:name',
      {
        config: inHandler,
        schema: {
          tags,
          summary: "One of the caller's teams; another team's answers 404 as a missing one does",
          params: TeamNameParams,
          response: { 200: TeamViewSchema, ...problemResponses(400, 404) },
        },
      },
      async (req) => getTeam(deps, req.caller, req.params.name),
    );
  };
}
