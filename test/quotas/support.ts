// One Beekeeper (api + worker roles) on real Redis against a fast simulated hub, signed in with static tokens that
// carry a team, and teams with namespaces and quotas in the configuration.
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { createTestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { hashedEntry } from '../../src/config/auth.js';
import type { KindName, KubeObject, ObjectRef } from '../../src/services/ports.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator } from '../../src/sim/simulator.js';
import { createSystem } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { HUB, type Bed } from '../clusters/support.js';

export { HUB };

/** A token per team and role; `root` has no team (a platform admin's, as before teams existed). */
export const TOKENS = {
  alpha: { name: 'alpha-admin', token: 'alpha-admin-token-0123456789', team: 'alpha', role: 'admin' },
  gamma: { name: 'gamma-admin', token: 'gamma-admin-token-0123456789', team: 'gamma', role: 'admin' },
  delta: { name: 'delta-admin', token: 'delta-admin-token-0123456789', team: 'delta', role: 'admin' },
  beta: { name: 'beta-viewer', token: 'beta-viewer-token-0123456789', team: 'beta', role: 'viewer' },
  root: { name: 'root', token: 'root-platform-token-0123456789' },
} as const;

/** alpha: counts of clusters; gamma: claims and lifetimes; delta: pools; beta: no quotas. */
export const TEAMS: Config['teams'] = [
  { name: 'alpha', namespaces: ['alpha'], quotas: { clusters: 2, runningClusters: 1 } },
  { name: 'gamma', namespaces: [`${HUB}/gamma`], quotas: { claims: 1, maxLifetimeHours: 8 } },
  { name: 'delta', namespaces: ['delta'], quotas: { clusters: 3 } },
  { name: 'beta', namespaces: ['beta'] },
];

export async function startQuotaBed(): Promise<Bed & { config: Config }> {
  const clock = createTestClock();
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock, deleteProtection: false });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-quotas-${randomUUID().slice(0, 8)}}`,
  });
  const embedded = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });
  const config: Config = {
    ...embedded,
    auth: { ...embedded.auth, tokens: Object.values(TOKENS).map(hashedEntry) },
    teams: TEAMS,
  };
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  return {
    sim,
    system,
    app: system.app,
    clock,
    config,
    async close() {
      await system.close();
      await sim.close();
    },
  };
}

export type Who = keyof typeof TOKENS;

/** A request through HTTP as `who`. */
export function as(bed: Bed, who: Who) {
  const headers = { authorization: `Bearer ${TOKENS[who].token}` };
  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    bed.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, body?: unknown) => send('POST', url, body ?? {}),
    put: (url: string, body: unknown) => send('PUT', url, body),
    patch: (url: string, body: unknown) => send('PATCH', url, body),
  };
}

/** Waits until the informer cache shows the object as `test` wants it (so the next count includes it). */
export function seen<T extends KubeObject>(
  bed: Bed,
  kind: Parameters<Bed['system']['store']['waitFor']>[0],
  ref: ObjectRef,
  test: (o: T | undefined) => boolean = (o) => o !== undefined,
  timeoutMs = 10_000,
): Promise<true> {
  return bed.system.store.waitFor<T, true>(kind, ref, (o) => (test(o) ? true : undefined), { timeoutMs });
}

/** The object as the hub has it now (a live read, not the cache). */
export const live = <T extends KubeObject>(bed: Bed, kind: KindName, ref: ObjectRef) =>
  bed.system.store.get<T>(kind, ref);

export const problemOf = (res: LightMyRequestResponse) =>
  res.json<{ code: string; team?: string; quota?: string; limit?: number; current?: number; detail?: string }>();
