// One Beekeeper api on real Redis against a simulated hub (controllable clock), configured by environment variables
// as an operator would, with its log captured so that a test can say who signed in and that no token was logged.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

export const HUB = 'east';

export interface AuthBed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  /** Every log line so far, as written. */
  logs(): string;
  /** The `principal` of logged requests, in order. */
  principals(): string[];
  /** A request to the API with this bearer token (or none). */
  get(path: string, token?: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /** The simulated hub's own API, as its admin. */
  kube(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startAuthBed(env: Record<string, string> = {}): Promise<AuthBed> {
  const clock = createTestClock();
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock, controllers: false });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-auth-${randomUUID().slice(0, 8)}}`,
    ...env,
  });
  const config = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });
  let written = '';
  const destination = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  const log = createLogger({ level: 'debug', destination, pretty: false });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api'] });
  const hub = sim.hubs[0]!;
  return {
    sim,
    system,
    app: system.app,
    clock,
    logs: () => written,
    principals: () =>
      written
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => (JSON.parse(l) as { principal: string }).principal),
    async get(path, token) {
      const res = await system.app.inject({
        method: 'GET',
        url: path,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, headers: res.headers, body };
    },
    async kube(method, path, body, token) {
      const res = await fetch(`${hub.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token ?? hub.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await system.close();
      await sim.close();
    },
  };
}

/** Asks until `ok` holds (each ask is a real request; the pause only spaces them). */
export async function eventually<T>(ask: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await ask();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`never satisfied; last: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
