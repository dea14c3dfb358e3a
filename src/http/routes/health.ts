// Probes and metrics. /healthz: the process serves requests. /readyz: this process can serve: Redis answers and its
// own state is usable (the state hub's informers for Beekeeper's kinds have synced, for roles that read them). A hub
// being unreachable does not make a replica unready: every replica shares the same hubs, so one dead hub would take
// every pod out of service; its health is in the body, GET /v1/hubs, beekeeper_hub_reachable and Events instead.
// /metrics renders memory only (the periodic refresh fills the gauges that need a request: system/health-refresher.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { CachedKind, HiveStore } from '../../services/ports.js';
import type { HubHealth } from '../../services/hubs/hub-health.js';
import type { RedisClient } from '../../redis/connect.js';
import { within } from '../../redis/within.js';
import type { Metrics } from '../metrics.js';

export interface HealthDeps {
  store: Pick<HiveStore, 'hubCaches'>;
  redis: RedisClient;
  metrics: Metrics;
  /** The last periodic probe of each hub (informational in /readyz); none: the body lists no hubs. */
  hubs?: () => HubHealth[];
  /** The informers this process cannot serve without (the state hub's beekeeper.io kinds); none: Redis only. */
  ownState?: { hub: string; kinds: readonly CachedKind[] };
}

export function healthRoutes(deps: HealthDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
      // Bounded, so the probe answers 503 before the kubelet's own timeout (1 s by default) gives up on it.
      const redis = await within(900, 'PING', deps.redis.ping()).then(
        () => ({ ok: true as const }),
        (err: Error) => ({ ok: false as const, message: err.message }),
      );
      const own = deps.ownState;
      const cache = own ? deps.store.hubCaches().find((c) => c.name === own.hub) : undefined;
      const unsynced = own ? own.kinds.filter((k) => !cache?.informers[k]?.synced) : [];
      const ready = redis.ok && unsynced.length === 0;
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not ready',
        redis: redis.ok ? 'ok' : redis.message,
        ...(own
          ? {
              state: {
                hub: own.hub,
                synced: unsynced.length === 0,
                ...(unsynced.length ? { waitingFor: unsynced } : {}),
              },
            }
          : {}),
        // Informational: a hub being unreachable does not make this process unready.
        hubs: (deps.hubs?.() ?? []).map((h) => ({
          name: h.name,
          reachable: h.reachable,
          since: h.since,
          ...(h.message ? { message: h.message } : {}),
        })),
      });
    });

    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
      reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()),
    );
  };
}
