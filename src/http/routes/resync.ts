// GET /v1/resync: how often the scheduler role's resync runs and what its last run found missing and repaired
// (read from the beekeeper-resync ConfigMap, so it answers while Redis is down).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ResyncRecord } from '../../services/resync/resync-record.js';
import { problemResponses } from '../schemas.js';

const ResyncRecordSchema = Type.Object(
  {
    slot: Type.String({
      description: 'The slot run: its start, or `recovery-<start>` for the run after a Redis outage',
    }),
    trigger: Type.Union([Type.Literal('schedule'), Type.Literal('recovery'), Type.Literal('manual')]),
    startedAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.String({ format: 'date-time' }),
    instance: Type.String({ description: 'The scheduler replica that ran it' }),
    repairs: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Repairs by kind, e.g. schedule-sweep, warning, heartbeat',
    }),
    failed: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Repairers that failed, with why; the next run tries again',
      }),
    ),
  },
  { title: 'ResyncRecord' },
);

export function resyncRoutes(deps: {
  intervalSeconds: number;
  last(): Promise<ResyncRecord | undefined>;
}): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/resync',
      {
        config: { access: { platformAdmin: true } },
        schema: {
          tags: ['hubs'],
          summary: 'The periodic resync: its interval and its last run (what was found missing and repaired)',
          response: {
            200: Type.Object({
              intervalSeconds: Type.Integer({ minimum: 1 }),
              lastResync: Type.Optional(ResyncRecordSchema),
            }),
            ...problemResponses(),
          },
        },
      },
      async () => {
        const last = await deps.last();
        return { intervalSeconds: deps.intervalSeconds, ...(last ? { lastResync: last } : {}) };
      },
    );
  };
}
