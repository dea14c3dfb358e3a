// The world the fuzz suite attacks: one Beekeeper (api + worker) on real Redis against a simulated hub, signed in
// with a platform-admin token so requests reach validation, with one object of every kind to aim at, and a
// witness of every change: the simulator's own store (every kind, every namespace) and the job queue.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { createBody, HUB, prerequisites } from '../clusters/support.js';

export { HUB };
export const NS = 'fuzz';
export const TOKEN = `fuzz-${randomBytes(16).toString('hex')}`;

export interface World {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  /** Path parameter values naming existing objects, by the path's first segment after /v1. */
  params: Record<string, Record<string, string>>;
  /** Store writes since the last call (storage key, object key, event type). */
  takeWrites(): string[];
  /** After a request that changed something: let what it started run out, so the next request is judged alone. */
  settle(maxMs: number): Promise<void>;
  /** Ids and states of every job in the queue. */
  jobs(): Promise<string[]>;
  close(): Promise<void>;
}

async function call(app: FastifyInstance, method: string, url: string, payload?: unknown) {
  const res = await app.inject({
    method: method as 'POST',
    url,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<Record<string, unknown>>();
}

export async function startWorld(): Promise<World> {
  const clock = createTestClock();
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock, deleteProtection: false });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-fuzz-${randomUUID().slice(0, 8)}}`,
    // A token without a team: a platform admin, who may do everything, so only the input decides.
    BEEKEEPER_API_TOKENS: `fuzz=${TOKEN}`,
    // Thousands of requests from one caller: a rate limit would answer before validation (docs/edge.md).
    BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0',
  });
  const config = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  const app = system.app;

  // One object of each kind the routes name, so hostile requests meet real targets (and must leave them alone).
  await prerequisites({ sim, system, app, clock, close: async () => undefined }, NS);
  await call(app, 'POST', '/v1/pools', {
    hub: HUB,
    namespace: NS,
    name: 'fz-pool',
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'example.com',
    imageSetName: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    size: 0,
  });
  await call(app, 'POST', '/v1/claims', { pool: `${HUB}/${NS}/fz-pool`, name: 'fz-claim', lifetime: '2h' });
  const created = await call(app, 'POST', '/v1/clusters?wait=60', createBody(NS, 'fz-cluster'));
  const jobId = (created.job as { id: string }).id;
  await call(app, 'POST', `/v1/clusters/${HUB}/${NS}/fz-cluster/overrides`, {
    type: 'keepAwake',
    for: '4h',
    by: 'fuzz',
    reason: 'fuzz target',
  });
  await call(app, 'PUT', `/v1/clusters/${HUB}/${NS}/fz-cluster/expiry`, { expiresIn: '8h' });
  await call(app, 'POST', '/v1/schedules', {
    name: 'fz-schedule',
    timeZone: 'UTC',
    targets: { namespaces: [NS] },
    windows: [{ days: ['Mon'], start: '07:00', end: '19:00' }],
    dryRun: true,
  });
  await call(app, 'POST', '/v1/expiry-policies', {
    name: 'fz-policy',
    selector: { namespaces: [NS] },
    maxLifetime: '72h',
    dryRun: true,
  });
  await call(app, 'PUT', '/v1/webhooks/fz-hook', { url: 'https://hooks.example.com/beekeeper', format: 'generic' });

  const store = sim.hubs[0]!.server.store;
  let writes: string[] = [];
  // Events are the audit trail, not state: a refused request may well be recorded (who tried what), and the
  // audit records of every mutating request are Events by design (issue 12). Every other kind counts.
  const unsubscribe = store.subscribe((e) => {
    if (!/(^|\/)events$/.test(e.storageKey)) writes.push(`${e.type} ${e.storageKey} ${e.key}`);
  });
  /** Waits for the hub to be quiet for a second (at most `maxMs`), and forgets what was written meanwhile. */
  const settle = async (maxMs: number) => {
    for (let quiet = 0, waited = 0; quiet < 10 && waited < maxMs / 100; waited++) {
      const before = writes.length;
      await new Promise((r) => setTimeout(r, 100));
      quiet = writes.length === before ? quiet + 1 : 0;
    }
    writes = [];
  };
  // The install done, the claim pending, Events recorded.
  await settle(30_000);

  const names = { hub: HUB, namespace: NS };
  return {
    sim,
    system,
    app,
    params: {
      clusters: { ...names, name: 'fz-cluster' },
      pools: { ...names, name: 'fz-pool' },
      claims: { ...names, name: 'fz-claim' },
      schedules: { name: 'fz-schedule' },
      'expiry-policies': { name: 'fz-policy' },
      webhooks: { name: 'fz-hook' },
      jobs: { id: jobId },
      relocations: { id: 'fz-relocation' },
    },
    settle,
    takeWrites() {
      const out = writes;
      writes = [];
      return out;
    },
    async jobs() {
      const list = await system.queue.list({ limit: 1000 });
      return list.map((j) => `${j.id} ${j.state}`).sort();
    },
    async close() {
      unsubscribe();
      await system.close();
      await sim.close();
    },
  };
}
