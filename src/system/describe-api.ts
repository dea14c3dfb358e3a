// The OpenAPI document the API role serves, built without Redis or hubs: route registration calls no dependency,
// so offline stand-ins take their place. `npm run openapi` writes it to openapi/openapi.json; a test fails when
// the two differ.
import { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { Unavailable } from '../hive/errors.js';
import { createMetrics } from '../http/metrics.js';
import { buildServer } from '../http/server.js';
import type { BullJobQueue } from '../jobs/job-queue.js';
import type { Logger } from '../logger.js';
import type { HiveStore } from '../services/ports.js';
import { createOperations } from '../services/operations/operations.js';
import { FEATURES } from './features.js';
import { configTeamDirectory } from '../auth/team-directory.js';
import { createHubHealth } from '../services/hubs/hub-health.js';

export async function describeApi(config: Config, log: Logger, clock: Clock): Promise<unknown> {
  const offline = (what: string) => () => {
    throw new Unavailable(`${what} is offline while describing the API`);
  };
  const hubs = config.hubs.length > 0 ? config.hubs.map((h) => h.name) : ['local'];
  const store: HiveStore = {
    hubNames: () => hubs,
    hubStatus: async () => [],
    hubCaches: () => [],
    cached: () => undefined,
    cachedList: () => [],
    cachedInOrder: () => [],
    get: offline('store'),
    list: offline('store'),
    create: offline('store'),
    mergePatch: offline('store'),
    replace: offline('store'),
    delete: offline('store'),
    waitFor: offline('store'),
    onChange: () => () => undefined,
    recordEvent: async () => undefined,
  };
  const queue: BullJobQueue = {
    hubs,
    assertAccepting: offline('queue'),
    enqueue: offline('queue'),
    get: offline('queue'),
    list: offline('queue'),
    waitUntilDone: offline('queue'),
    watch: () => () => undefined,
    retry: offline('queue'),
    counts: offline('queue'),
    inFlightByType: offline('queue'),
    boardQueues: () => [],
    close: async () => undefined,
  };
  const redis = new Redis({ lazyConnect: true });
  const metrics = createMetrics({ defaultMetrics: false });
  const operations = createOperations({
    store,
    queue,
    clock,
    log,
    stateHub: config.stateHub,
    stateNamespace: config.stateNamespace,
  });
  const features = FEATURES.map((f) =>
    f({
      config,
      store,
      queue,
      operations,
      clock,
      log,
      metrics,
      teams: configTeamDirectory(config),
      hubs: createHubHealth({ store, clock }),
      leader: () => false,
    }),
  );
  const app = await buildServer({
    teams: configTeamDirectory(config),
    config,
    log,
    queue,
    store,
    metrics,
    routes: features.flatMap((f) => f.routes ?? []),
    redis,
    queuesForBoard: [],
  });
  try {
    return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  } finally {
    await app.close();
    redis.disconnect();
  }
}
