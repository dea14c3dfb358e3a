// One Beekeeper (api + worker) behind static tokens with teams, on real Redis and a fast simulated hub, whose log
// lines the test reads (a pino destination in memory).
import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

export const HUB = 'east';
export const STATE_NAMESPACE = 'beekeeper';

/** Static tokens (each at least 16 characters); the test greps every log line and Event for them. */
export const TOKENS = {
  root: 'root-token-0123456789abcdef',
  ann: 'ann-admin-token-0123456789',
  otto: 'otto-operator-token-012345',
  bea: 'bea-admin-b-token-01234567',
} as const;

export type Who = keyof typeof TOKENS;

export interface Bed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  /** Every JSON log line so far. */
  lines: Array<Record<string, unknown>>;
  /** Resolves with the audit log line of that request once it is written. */
  auditLine(requestId: string): Promise<Record<string, unknown>>;
  as(who: Who | 'nobody', opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** The audit Events in a namespace, read from the simulator over HTTP. */
  auditEvents(namespace: string): Promise<Array<Record<string, any>>>;
  close(): Promise<void>;
}

/** `level`: the log level the operator configured (default info). */
export async function startBed(opts: { level?: 'info' | 'warn' | 'error' } = {}): Promise<Bed> {
  const clock = createTestClock();
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock, deleteProtection: false });
  const dir = mkdtempSync(join(tmpdir(), 'bk-audit-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    JSON.stringify({
      auth: {
        tokens: [
          { name: 'root', token: TOKENS.root },
          { name: 'ann', token: TOKENS.ann, team: 'team-a', role: 'admin' },
          { name: 'otto', token: TOKENS.otto, team: 'team-a', role: 'operator' },
          { name: 'bea', token: TOKENS.bea, team: 'team-b', role: 'admin' },
        ],
      },
      teams: [
        { name: 'team-a', namespaces: ['a-ns'] },
        { name: 'team-b', namespaces: ['b-ns'] },
      ],
    }),
  );
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-audit-${randomUUID().slice(0, 8)}}`,
    BEEKEEPER_CONFIG: file,
  });
  const config = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });

  const lines: Array<Record<string, unknown>> = [];
  const waiting = new Set<() => void>();
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString('utf8').split('\n'))
        if (text.trim()) lines.push(JSON.parse(text) as Record<string, unknown>);
      for (const wake of waiting) wake();
      done();
    },
  });
  const log = createLogger({ level: opts.level ?? 'info', destination });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  const hub = sim.hubs[0]!;

  const find = (id: string) => lines.find((l) => l.audit === true && l.requestId === id);
  return {
    sim,
    system,
    app: system.app,
    lines,
    auditLine(requestId) {
      return new Promise((resolve) => {
        const check = () => {
          const line = find(requestId);
          if (!line) return;
          waiting.delete(check);
          resolve(line);
        };
        waiting.add(check);
        check();
      });
    },
    as(who, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
      headers.authorization = `Bearer ${who === 'nobody' ? 'not-a-valid-token-000000' : TOKENS[who]}`;
      return system.app.inject({ ...opts, headers });
    },
    async auditEvents(namespace) {
      const res = await fetch(
        `${hub.url}/api/v1/namespaces/${namespace}/events?labelSelector=${encodeURIComponent('beekeeper.io/audit=true')}`,
        { headers: { authorization: `Bearer ${hub.token}` } },
      );
      if (res.status !== 200) throw new Error(`list events: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { items: Array<Record<string, any>> }).items;
    },
    async close() {
      await system.close();
      await sim.close();
    },
  };
}
