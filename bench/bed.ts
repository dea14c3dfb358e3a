// A Beekeeper (api + worker unless told) on the simulator with its own Redis prefix: in process or with the simulator
// in a child process (bench/sim-host.ts), one hub or several; the limits its hubs run with; Redis left as found.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createTestClock, type TestClock } from '../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config, type HubConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../src/sim/simulator.js';
import { createKubeClient, type KubeClient } from '../src/sim/client/index.js';
import { createSystem, type Role, type System } from '../src/system.js';
import { prepareEmbeddedHub } from '../src/system/embedded-hub.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const HUB = 'bench';

/**
 * The per-hub limits a hub runs with, as the config loader filled them in (defaults unless the bed overrides
 * them): the baselines use these, never restated figures. Read by name because they change between versions:
 * `sweepConcurrency` (the sweep's pool per hub; before it existed the sweep's child jobs ran at
 * `backgroundConcurrency`), `maxInFlight` and the optional `qps`/`burst` caps.
 */
export function hubLimits(hub: HubConfig): {
  sweepConcurrency: number;
  maxInFlight?: number;
  qps?: number;
  burst?: number;
  label: string;
} {
  const h = hub as unknown as Record<string, unknown>;
  const num = (k: string) => (typeof h[k] === 'number' ? h[k] : undefined);
  const sweepConcurrency = num('sweepConcurrency') ?? hub.backgroundConcurrency;
  const maxInFlight = num('maxInFlight');
  const qps = num('qps');
  const burst = num('burst');
  const label = [
    `sweep concurrency ${sweepConcurrency}`,
    qps === undefined ? 'no QPS cap' : `QPS ${qps}, burst ${burst}`,
    ...(maxInFlight === undefined ? [] : [`max in flight ${maxInFlight}`]),
  ].join(', ');
  return {
    sweepConcurrency,
    label,
    ...(maxInFlight === undefined ? {} : { maxInFlight }),
    ...(qps === undefined ? {} : { qps }),
    ...(burst === undefined ? {} : { burst }),
  };
}

export interface Bed {
  /** In-process simulator (absent when it runs in a child process: see `advance`). */
  sim?: Simulator;
  client: KubeClient;
  /** Every hub of the bed (the first is `client`'s, named HUB), with its URL and token for raw requests. */
  hubs: Array<{ name: string; url: string; token: string; client: KubeClient }>;
  system: System;
  clock: TestClock;
  config: Config;
  /** Jumps the simulator's clock (and Beekeeper's), wherever the simulator runs. */
  advance(ms: number): Promise<void>;
  /** Jumps both clocks to an absolute time (never backwards). */
  setTime(atMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A simulated hub and one Beekeeper (api + worker roles unless told) on real Redis under a unique prefix. Unless
 * `defaultLimits`, the kube client rate limit is raised so the figures measure Beekeeper's machinery, not a
 * configured QPS budget.
 */
export async function startBed(
  opts: {
    sim?: SimulatorOptions;
    env?: Record<string, string>;
    startMs?: number;
    simProcess?: boolean;
    /** How many hubs (HUB, then HUB-2, HUB-3...), all in one simulator unless `simPerHub`. Default 1. */
    hubs?: number;
    /** With `simProcess`: a simulator process per hub, as real hubs are separate API servers (each its own CPU). */
    simPerHub?: boolean;
    /** Keep Beekeeper's default kube client limits (whatever the config loader gives) instead of raising them. */
    defaultLimits?: boolean;
    /** Roles of the Beekeeper under test; default api and worker (the scheduler's timers off). */
    roles?: Role[];
  } = {},
): Promise<Bed> {
  const clock = createTestClock(opts.startMs);
  const hubNames = Array.from({ length: opts.hubs ?? 1 }, (_, i) => (i === 0 ? HUB : `${HUB}-${i + 1}`));
  const simOpts = { hubNames, speed: 1000, ...opts.sim };
  const sim = opts.simProcess ? undefined : await startSimulator({ ...simOpts, clock });
  const groups = opts.simPerHub ? hubNames.map((n) => [n]) : [hubNames];
  const hosts = opts.simProcess
    ? await Promise.all(groups.map((names) => startSimHost({ ...simOpts, hubNames: names }, clock.now())))
    : [];
  const kubeconfig = sim ? sim.kubeconfigYaml() : hosts[0]!.kubeconfig;
  const served = sim
    ? sim.hubs.map((h) => ({ name: h.name, url: h.url, token: h.token, kubeconfig }))
    : hosts.flatMap((host) => host.hubs.map((h) => ({ ...h, kubeconfig: host.kubeconfig })));
  const hubs = served.map(({ kubeconfig: _, ...h }) => ({
    ...h,
    client: createKubeClient({ server: h.url, token: h.token, insecureSkipTLSVerify: true }),
  }));
  const client = hubs[0]!.client;
  const base = loadConfig({
    REDIS_URL,
    BEEKEEPER_REDIS_PREFIX: `{bk-bench-${randomUUID().slice(0, 8)}}`,
    ...(opts.defaultLimits ? {} : { BEEKEEPER_KUBE_QPS: '5000', BEEKEEPER_KUBE_BURST: '5000' }),
    ...opts.env,
  });
  const embedded = withEmbeddedHub(base, { name: HUB, kubeconfigData: kubeconfig });
  // Every hub from its simulator's kubeconfig, each its own context (the simulator names contexts after its hubs).
  const config: Config =
    hubs.length === 1
      ? embedded
      : {
          ...embedded,
          hubs: served.map((h) => ({
            ...embedded.hubs[0]!,
            name: h.name,
            context: h.name,
            kubeconfigData: h.kubeconfig,
          })),
        };
  const log = createLogger({ level: 'silent' });
  for (const hub of config.hubs) await prepareEmbeddedHub({ hub, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: opts.roles ?? ['api', 'worker'] });
  const advance = async (ms: number) => {
    clock.advance(ms);
    await Promise.all(hosts.map((h) => h.advance(ms)));
  };
  return {
    ...(sim ? { sim } : {}),
    client,
    hubs,
    system,
    clock,
    config,
    advance,
    setTime: (atMs) => advance(Math.max(0, atMs - clock.now())),
    async close() {
      await system.close();
      await sim?.close();
      await Promise.all(hosts.map((h) => h.close()));
      await deleteKeys(config.redis.prefix);
    },
  };
}

/** bench/sim-host.ts in a child process (no test clock option: it makes its own). */
export async function startSimHost(simOpts: Omit<SimulatorOptions, 'clock'>, startMs: number) {
  const child = fork(
    fileURLToPath(new URL('./sim-host.ts', import.meta.url)),
    [JSON.stringify(simOpts), String(startMs)],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const next = <T>(pick: (m: Record<string, unknown>) => T | undefined) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        const v = pick(m);
        if (v === undefined) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(v);
      };
      const onExit = (code: number | null) => reject(new Error(`simulator process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next((m) =>
    typeof m.kubeconfig === 'string'
      ? (m as {
          kubeconfig: string;
          url: string;
          token: string;
          hubs: Array<{ name: string; url: string; token: string }>;
        })
      : undefined,
  );
  return {
    ...ready,
    /** The simulator's process, for CPU figures (/proc/<pid>/stat). */
    pid: child.pid!,
    async advance(ms: number) {
      const done = next((m) => (m.advanced !== undefined ? true : undefined));
      child.send({ advance: ms });
      await done;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ close: true });
      await exited;
    },
  };
}

/** Leaves Redis as found: every key of a bench carries its own prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
