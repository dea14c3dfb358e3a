// Two simulated hubs (east: source and state hub; west) and one Beekeeper (api + worker) on real Redis, signed in
// with static tokens that carry teams: payments owns namespace `pay`, ml owns `ml`, `shared` belongs to no team.
// Each caller below is one token; `both` is admin in payments (its token) and in ml (a team member entry).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { adoptCluster as adoptInstalled } from '../schedule/support.js';

export const EAST = 'east';
export const WEST = 'west';
export const STATE_NS = 'beekeeper';

export const TOKENS = {
  platform: 'tok-platform-0123456789abcdef',
  payAdmin: 'tok-pay-admin-0123456789abcdef',
  payOperator: 'tok-pay-operator-0123456789ab',
  payViewer: 'tok-pay-viewer-0123456789abcd',
  mlAdmin: 'tok-ml-admin-0123456789abcdef',
  both: 'tok-both-0123456789abcdef0123',
} as const;
export type Who = keyof typeof TOKENS;

const CONFIG = {
  auth: {
    tokens: [
      { name: 'platform', token: TOKENS.platform },
      { name: 'pay-admin', token: TOKENS.payAdmin, team: 'payments', role: 'admin' },
      { name: 'pay-operator', token: TOKENS.payOperator, team: 'payments', role: 'operator' },
      { name: 'pay-viewer', token: TOKENS.payViewer, team: 'payments', role: 'viewer' },
      { name: 'ml-admin', token: TOKENS.mlAdmin, team: 'ml', role: 'admin' },
      { name: 'both', token: TOKENS.both, team: 'payments', role: 'admin' },
    ],
  },
  teams: [
    { name: 'payments', namespaces: ['pay'] },
    { name: 'ml', namespaces: ['ml'], members: [{ user: 'both', role: 'admin' }] },
  ],
};

export interface Bed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  as(
    who: Who,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startBed(startMs: number): Promise<Bed> {
  const clock = createTestClock(startMs);
  const sim = await startSimulator({ hubNames: [EAST, WEST], speed: 1000, clock, deleteProtection: false });
  const dir = mkdtempSync(join(tmpdir(), 'bk-team-objects-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, toYaml(CONFIG));
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-teamobj-${randomUUID().slice(0, 8)}}`,
    BEEKEEPER_CONFIG: file,
    // The tests' webhook receivers listen on loopback, which webhooks may not reach by default (docs/webhooks.md).
    BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  });
  const kubeconfigOf = (i: number, name: string) => toYaml(sim.hubs[i]!.server.kubeconfig(name));
  const east = withEmbeddedHub(base, { name: EAST, kubeconfigData: kubeconfigOf(0, EAST) });
  const westHub = { ...east.hubs[0]!, name: WEST, kubeconfigData: kubeconfigOf(1, WEST) };
  const config = { ...east, hubs: [east.hubs[0]!, westHub], stateHub: EAST } as Config;
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: STATE_NS, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  return {
    sim,
    system,
    app: system.app,
    clock,
    config,
    as: (who, method, url, payload) =>
      system.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${TOKENS[who]}` },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      }),
    async close() {
      await system.close();
      await sim.close();
    },
  };
}

/** An adopted, installed cluster on east (Hive reaches Running at once): the schedule tests' own. */
export const adoptCluster = (bed: Bed, namespace: string, name: string, annotations: Record<string, string> = {}) =>
  adoptInstalled(bed, namespace, name, { annotations });

/** A Wednesday noon (UTC): outside the schedules' Monday-morning window, so they say Hibernating. */
export const T0 = Date.parse('2026-06-03T12:00:00Z');

/** The answer a missing object gets: what another team sees of a team's object. */
export const missingLike = (res: { statusCode: number; json(): unknown }, detail: string) => {
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ status: 404, code: 'NotFound', detail });
};
