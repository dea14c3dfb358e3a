// A Beekeeper API (no worker: accepted work stays queued) on a private redis-server that the test may flush, against
// a fast simulated hub; workers are started separately, as another process would be. Beekeeper's CRDs are
// installed as production would.
import { spawn, type ChildProcess } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createLogger } from '../../src/logger.js';
import { freePort, pingRedis } from '../../src/redis/bootstrap.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type Role, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { createAdopted } from '../support/adopted-cluster.js';

export const HUB = 'east';
export const STATE_NS = 'beekeeper';
export const log = createLogger({ level: 'silent' });

export interface Bed {
  sim: Simulator;
  /** The API role only. */
  api: System;
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  /** Another process's worth of roles on the same hub and Redis. */
  start(roles: Role[]): Promise<System>;
  /** FLUSHALL on this test's own redis-server: every job, its history, every Idempotency-Key record. */
  flushRedis(): Promise<void>;
  /** Stop this test's redis-server (SIGKILL), and start it again, empty, on the same port. */
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  /** A command to this test's redis-server. */
  redis<T>(fn: (redis: Redis) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A redis-server of this test's own, with nothing durable, that the test may flush, stop and start again. */
async function privateRedis() {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      if (await pingRedis(url, 200)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${port} did not start`);
  };
  await start();
  return { url, start, stop };
}

export async function startBed(): Promise<Bed> {
  const clock = createTestClock();
  const server = await privateRedis();
  // The simulator takes far more than the default 20 requests a second a real hub is spared; 100 requests with their
  // Operations then take a second, not ten.
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock });
  const config = withEmbeddedHub(
    loadConfig({
      REDIS_URL: server.url,
      BEEKEEPER_REDIS_PREFIX: '{bk-ops}',
      BEEKEEPER_KUBE_QPS: '200',
      BEEKEEPER_KUBE_BURST: '400',
    }),
    { name: HUB, kubeconfigData: sim.kubeconfigYaml() },
  );
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: STATE_NS, clock, log });
  const api = await createSystem({ config, log, clock, roles: ['api'] });
  const others: System[] = [];
  const redis = async <T>(fn: (r: Redis) => Promise<T>): Promise<T> => {
    const client = new Redis(server.url);
    try {
      return await fn(client);
    } finally {
      client.disconnect();
    }
  };
  return {
    sim,
    api,
    app: api.app,
    clock,
    config,
    async start(roles) {
      const system = await createSystem({ config, log, clock, roles });
      others.push(system);
      return system;
    },
    redis,
    async flushRedis() {
      await redis((r) => r.flushall());
    },
    stopRedis: server.stop,
    startRedis: server.start,
    async close() {
      // Running, so that every role's connections close cleanly.
      await server.start().catch(() => undefined);
      for (const s of others.splice(0)) await s.close();
      await api.close();
      await sim.close();
      await server.stop();
    },
  };
}

/** An adopted, installed cluster (Hive reaches Running at once). */
export async function adoptCluster(bed: Bed, namespace: string, name: string): Promise<void> {
  await createAdopted(bed.api.store, HUB, namespace, name, { fake: true });
  await cdWhere(bed, namespace, name, (cd) => cd?.status?.powerState === 'Running');
}

/** Resolves with the cluster once the informer shows it passing `test` (undefined: gone). */
export function cdWhere(
  bed: Bed,
  namespace: string,
  name: string,
  test: (cd: ClusterDeployment | undefined) => boolean,
  timeoutMs = 60_000,
): Promise<ClusterDeployment | undefined> {
  return bed.api.store
    .waitFor<ClusterDeployment, { cd: ClusterDeployment | undefined }>(
      'ClusterDeployment',
      { hub: HUB, namespace, name },
      (cd) => (test(cd) ? { cd } : undefined),
      { timeoutMs },
    )
    .then((r) => r.cd);
}

/** GET /v1/jobs/{id} as a client would. */
export async function getJob(bed: Bed, id: string, wait?: number): Promise<{ status: number; job?: JobView }> {
  const res = await bed.app.inject({ url: `/v1/jobs/${encodeURIComponent(id)}${wait ? `?wait=${wait}` : ''}` });
  return { status: res.statusCode, ...(res.statusCode === 200 ? { job: res.json<{ job: JobView }>().job } : {}) };
}

/** Events Beekeeper recorded on one object. */
export async function eventsOf(
  bed: Bed,
  namespace: string,
  name: string,
): Promise<Array<{ reason?: string; message?: string }>> {
  const all = await bed.api.store.list<
    KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }
  >('Event', HUB, { namespace });
  return all.filter((e) => e.involvedObject?.name === name);
}

/** The Operations in the state namespace, live. */
export async function operations(
  bed: Bed,
): Promise<
  Array<
    KubeObject & { spec: { type: string; target: { name: string; namespace?: string } }; status?: { phase?: string } }
  >
> {
  return bed.api.store.list('Operation', HUB, { namespace: STATE_NS });
}
