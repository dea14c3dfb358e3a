// One Beekeeper (api + worker roles, so timers are started by the tests themselves) on real Redis, against a
// fast simulated hub whose clock the test controls. Beekeeper's CRDs are installed as production would.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import type { JobCatalog } from '../../src/jobs/catalog.js';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type Role, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { createAdopted } from '../support/adopted-cluster.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

export const HUB = 'east';
export const STATE_NS = 'beekeeper';

export interface Bed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  timerDeps(): {
    store: System['store'];
    queue: System['queue'];
    clock: TestClock;
    log: ReturnType<typeof createLogger>;
    stateHub: string;
    stateNamespace: string;
  };
  /**
   * Another Beekeeper instance on the same hub (its own informers, queue connections and timers), on the same
   * Redis keys, or with `freshRedis` on keys of its own: what a Beekeeper sees after Redis was lost.
   */
  startInstance(roles: Role[], opts?: { freshRedis?: boolean }): Promise<System>;
  /** What a separate process needs to join this bed: its configuration as environment variables. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * `env`: more configuration, e.g. `BEEKEEPER_CONCURRENCY` for the hub's worker slots. `logTo`: a stream that
 * receives every log line (JSON, debug level and up) instead of silence. `roles`: the first instance's roles
 * (default api and worker; without a worker, only instances the test starts carry out jobs).
 */
export async function startBed(
  startMs: number,
  opts: {
    env?: Record<string, string>;
    logTo?: NodeJS.WritableStream;
    roles?: Role[];
    catalog?: JobCatalog;
    /** More hubs besides HUB (the state hub), in the same simulator. */
    moreHubs?: string[];
  } = {},
): Promise<Bed> {
  const clock = createTestClock(startMs);
  const sim = await startSimulator({ hubNames: [HUB, ...(opts.moreHubs ?? [])], speed: 1000, clock });
  const env = {
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-sched-${randomUUID().slice(0, 8)}}`,
    // The tests' webhook receivers listen on loopback, which webhooks may not reach by default.
    BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    ...opts.env,
  };
  const base = loadConfig(env);
  const embedded = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });
  // Every hub from the one kubeconfig, each its own context (the simulator names contexts after its hubs).
  const config = opts.moreHubs?.length
    ? {
        ...embedded,
        hubs: [HUB, ...opts.moreHubs].map((name) => ({ ...embedded.hubs[0]!, name, context: name })),
      }
    : embedded;
  const log = opts.logTo
    ? createLogger({ level: 'debug', destination: opts.logTo })
    : createLogger({ level: 'silent' });
  for (const hub of config.hubs) await prepareEmbeddedHub({ hub, namespace: STATE_NS, clock, log });
  const system = await createSystem({
    config,
    log,
    clock,
    roles: opts.roles ?? ['api', 'worker'],
    ...(opts.catalog ? { catalog: opts.catalog } : {}),
  });
  const instances: System[] = [];
  const prefixes = [config.redis.prefix];
  return {
    sim,
    system,
    app: system.app,
    clock,
    timerDeps: () => ({
      store: system.store,
      queue: system.queue,
      clock,
      log,
      stateHub: HUB,
      stateNamespace: STATE_NS,
    }),
    env: { ...env, HUB, KUBECONFIG_DATA: sim.kubeconfigYaml() },
    async startInstance(roles, more = {}) {
      const prefix = more.freshRedis ? `{bk-sched-${randomUUID().slice(0, 8)}}` : config.redis.prefix;
      if (!prefixes.includes(prefix)) prefixes.push(prefix);
      const instance = await createSystem({
        config: { ...config, redis: { ...config.redis, prefix } },
        log,
        clock,
        roles,
        ...(opts.catalog ? { catalog: opts.catalog } : {}),
      });
      instances.push(instance);
      return instance;
    },
    async close() {
      for (const instance of instances.splice(0)) await instance.close();
      await system.close();
      await sim.close();
      // Leave Redis as we found it: this bed's keys all carry its own prefixes.
      const redis = new Redis(config.redis.url ?? 'redis://127.0.0.1:6379');
      for (const prefix of prefixes) {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      }
      redis.disconnect();
    },
  };
}

/** An adopted, installed cluster (Hive reaches Running at once), optionally a pool cluster. */
export async function adoptCluster(
  bed: Pick<Bed, 'system'>,
  namespace: string,
  name: string,
  opts: { labels?: Record<string, string>; pool?: string; annotations?: Record<string, string> } = {},
): Promise<void> {
  await createAdopted(bed.system.store, HUB, namespace, name, { ...opts, fake: true });
  await waitPower(bed, namespace, name, 'Running');
}

export function cd(bed: Bed, namespace: string, name: string): ClusterDeployment {
  return bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace, name })!;
}

/** Resolves when Hive reports the power state (status.powerState). */
export function waitPower(
  bed: Pick<Bed, 'system'>,
  namespace: string,
  name: string,
  state: 'Running' | 'Hibernating',
): Promise<true> {
  return bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: HUB, namespace, name },
    (o) => (o?.status?.powerState === state ? true : undefined),
    {
      timeoutMs: 60_000,
    },
  );
}

/** Resolves with the job once it has ended; it may not exist yet (a timer is about to enqueue it). */
export function waitJob(bed: Bed, id: string, timeoutMs = 30_000): Promise<JobView> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`job ${id} did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = bed.system.queue.watch(id, (job) => {
      if (job.state !== 'completed' && job.state !== 'failed') return;
      clearTimeout(timer);
      off();
      resolve(job);
    });
  });
}

export async function events(
  bed: Bed,
  namespace: string,
  name: string,
): Promise<Array<{ reason?: string; message?: string; type?: string }>> {
  const all = await bed.system.store.list<
    KubeObject & { reason?: string; message?: string; type?: string; involvedObject?: { name?: string } }
  >('Event', HUB, { namespace });
  return all.filter((e) => e.involvedObject?.name === name);
}

/**
 * Creates, through the API, a weekday office-hours schedule (08:00–18:00, Europe/Berlin unless `timeZone` says
 * otherwise) for one namespace, and resolves once the state hub's cache holds it. `firstDay` allows hibernating the
 * clusters a test has just adopted; `more` adds or replaces payload fields (`targets`, `enforce`, `catchUpDeadline`).
 */
export async function createOfficeHours(
  bed: Bed,
  name: string,
  namespace: string,
  { firstDay = false, ...more }: { firstDay?: boolean } & Record<string, unknown> = {},
): Promise<void> {
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name,
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [namespace] },
      ...(firstDay && { safety: { allowHibernationInFirstDay: { reason: 'clusters adopted by this test just now' } } }),
      ...more,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: STATE_NS, name }, (o) => o, {
    timeoutMs: 10_000,
  });
}
