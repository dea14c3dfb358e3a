// The drill harness: Beekeeper as production runs it, as separate OS processes (the api, worker and scheduler
// roles from src/main/, the simulator of `npm run sim`, both from src/ compiled once per run by
// test/support/compiled-src.ts) on a private redis-server, so a drill can flush, stop or restart Redis and kill or
// stop a role, then count from Kubernetes what was done. Everything it starts, and its temp directory, goes in
// close() (and processes also when the test process exits). See README.md here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { freePort } from '../../src/redis/bootstrap.js';
import {
  createKubeClient,
  targetFromKubeconfig,
  type KubeClient,
  type ApiResource,
} from '../../src/sim/client/index.js';
import type { FaultSpec } from '../../src/sim/apiserver/index.js';
import { requestJson } from '../../src/sim/client/transport.js';
import type { Role } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { compiledMain } from '../support/compiled-src.js';
import { startProcess, stopProcess, type DrillProcess } from './child-process.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

export { tally, type Tally } from './tally.js';
export { report } from './report.js';
export { fullSetOnly, scaled } from './scale.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const STATE_NS = 'beekeeper';
const EVENTS: ApiResource = { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true };

export interface DrillOptions {
  /** Hub names, each a context of the simulator (default one hub, `east`; the first is the state hub). */
  hubs?: string[];
  /** Redis with an append-only file, for drills that restart it. */
  aof?: boolean;
  /** The simulator's speed (default 1000: an install takes ~2.4 s). */
  simSpeed?: number;
  /** More `npm run sim` flags (e.g. `--faults`). */
  simArgs?: string[];
  /** Environment for every Beekeeper role, over the harness's own. */
  env?: Record<string, string>;
  /** Replicas of each role started at once (default one of each); start more or later with `drill.start`. */
  roles?: Partial<Record<Role, number>>;
  /** Start no role yet: the drill sets its stage on the hub, then calls `drill.startRoles`. */
  deferRoles?: boolean;
}

export interface RoleProcess extends DrillProcess {
  role: Role;
  /** http://127.0.0.1:<port>: the API (api role) or probes and metrics (others). */
  url: string;
}

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Drill {
  dir: string;
  hubs: string[];
  redis: RedisServer;
  /** Path of the simulator's kubeconfig (one context per hub), for kubectl too. */
  kubeconfig: string;
  kube(hub?: string): KubeClient;
  /** Every role process started so far, in order. */
  roles: RoleProcess[];
  start(role: Role, env?: Record<string, string>): Promise<RoleProcess>;
  /** `opts.roles` (after `deferRoles`); with `clockOffsetMs`, each role started from now on runs that far off real time. */
  startRoles(opts?: { clockOffsetMs?: number }): Promise<void>;
  /** The roles' time: Date.now() plus the clock offset they were started with. */
  now(): number;
  /** A request to the first running api process (`path` from /v1 on, e.g. `/v1/clusters`). */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** A role's /metrics as `name{labels}` -> value (default: the first running api process). */
  metrics(from?: RoleProcess): Promise<Map<string, number>>;
  /**
   * Fault injection on a hub from now on (the simulator's spec: errors, conflicts, watch drops, latency; see
   * docs/simulator.md), or none with `undefined`: a drill sets its stage up cleanly, then turns faults on.
   */
  faults(spec: FaultSpec | undefined, hub?: string): Promise<void>;
  /** Names of the objects in `namespace` that have an Event with this reason, once per Event. */
  eventsFor(namespace: string, reason: string, hub?: string): Promise<string[]>;
  /**
   * The last `limit` lines of every role's log that contain `text` (a job id, a cluster name), each prefixed with
   * its process name: what a failed drill prints, since its directory goes when it closes.
   */
  logsAbout(text: string, limit?: number): string[];
  close(): Promise<void>;
}

const ROLE_READY = new Set(['API listening', 'probes and metrics listening']);

/** Variables of the test process that must not leak into the roles (the tests' own Redis, say). */
const OURS = /^(BEEKEEPER_|REDIS_URL$|PORT$|LOG_LEVEL$)/;

export async function startDrill(opts: DrillOptions = {}): Promise<Drill> {
  const hubs = opts.hubs ?? ['east'];
  const dir = mkdtempSync(join(tmpdir(), 'beekeeper-drill-'));
  const started: DrillProcess[] = [];
  const roles: RoleProcess[] = [];
  let redis: RedisServer | undefined;

  const close = async () => {
    await Promise.all(roles.map((p) => stopProcess(p, 10_000)));
    for (const p of started.splice(0).reverse()) await stopProcess(p, 5_000);
    await redis?.close();
    if (!process.env.DRILL_KEEP) rmSync(dir, { recursive: true, force: true });
  };

  try {
    redis = await startRedisServer({ dir, aof: opts.aof ?? false });
    const kubeconfig = join(dir, 'sim.kubeconfig');
    const sim = startProcess({
      name: 'sim',
      command: process.execPath,
      args: [
        ...compiledMain('sim'),
        '--hub-names',
        hubs.join(','),
        '--seed',
        'none',
        '--speed',
        String(opts.simSpeed ?? 1000),
        '--kubeconfig-out',
        kubeconfig,
        '--log-level',
        'warn',
        ...(opts.simArgs ?? []),
      ],
      env: process.env,
      cwd: ROOT,
      logFile: join(dir, 'sim.log'),
      readyWhen: (line) => line === 'ready',
    });
    started.push(sim);
    await sim.ready;
    const kubeconfigText = readFileSync(kubeconfig, 'utf8');
    const hubsVar = hubs.map((h) => `${h}=${kubeconfig}#${h}`).join(',');

    // Beekeeper's CRDs and namespace on the state hub, as `kubectl apply -f deploy/crds/` would.
    const stateHub = loadConfig({ BEEKEEPER_HUBS: hubsVar }).hubs[0]!;
    await prepareEmbeddedHub({
      hub: stateHub,
      namespace: STATE_NS,
      clock: systemClock,
      log: createLogger({ level: 'silent' }),
    });

    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !OURS.test(k)));
    let offsetMs = 0;
    const start = async (role: Role, env: Record<string, string> = {}, attempt = 1): Promise<RoleProcess> => {
      const port = await freePort();
      const n = roles.filter((r) => r.role === role).length + 1;
      const proc = startProcess({
        name: `${role}-${n}`,
        command: process.execPath,
        args: compiledMain(role),
        env: {
          ...inherited,
          BEEKEEPER_HUBS: hubsVar,
          REDIS_URL: redis!.url,
          BEEKEEPER_HTTP_HOST: '127.0.0.1',
          // The drills call the API without tokens: open access, said explicitly as a deployment must.
          BEEKEEPER_AUTH_OPEN: 'true',
          PORT: String(port),
          LOG_LEVEL: 'info',
          // The drills' webhook receivers listen on loopback, which webhooks may not reach by default; and one
          // test process asks for hundreds of changes a minute, as many users would (docs/edge.md).
          BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
          BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0',
          ...opts.env,
          ...(offsetMs ? { NODE_ENV: 'test', BEEKEEPER_TEST_CLOCK_OFFSET_MS: String(offsetMs) } : {}),
          ...env,
        },
        cwd: ROOT,
        logFile: join(dir, `${role}-${n}.log`),
        readyWhen: (line) => ROLE_READY.has(messageOf(line)),
      });
      const rp: RoleProcess = { ...proc, role, url: `http://127.0.0.1:${port}` };
      roles.push(rp);
      try {
        await proc.ready;
      } catch (err) {
        // The free port was taken between the check and the child's listen (another test run on the machine):
        // start it again on another one.
        if (!String(err).includes('EADDRINUSE') || attempt >= 3) throw err;
        roles.splice(roles.indexOf(rp), 1);
        return start(role, env, attempt + 1);
      }
      return rp;
    };

    // The roles start side by side (their start-up is mostly loading modules and syncing informers), each role's
    // replicas one after another (a replica's name and log file count the ones before it); then listed in a fixed
    // order, worker, scheduler, api, as a drill may take them by position.
    const order = ['worker', 'scheduler', 'api'] as const;
    const startRoles = async ({ clockOffsetMs = 0 } = {}) => {
      offsetMs = clockOffsetMs;
      await Promise.all(
        order.map(async (role) => {
          for (let i = 0; i < (opts.roles?.[role] ?? 1); i++) await start(role);
        }),
      );
      roles.sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role));
    };
    if (!opts.deferRoles) await startRoles();

    const kube = (hub = hubs[0]!) => createKubeClient(targetFromKubeconfig(kubeconfigText, hub));
    const apiUrl = () => {
      const api = roles.find((r) => r.role === 'api' && r.running());
      if (!api) throw new Error('no api process is running');
      return api.url;
    };
    return {
      dir,
      hubs,
      redis,
      kubeconfig,
      kube,
      roles,
      start,
      startRoles,
      now: () => Date.now() + offsetMs,
      async api(method, path, body, headers = {}) {
        const res = await fetch(`${apiUrl()}${path}`, {
          method,
          ...(body === undefined
            ? { headers }
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } }),
        });
        const text = await res.text();
        return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
      },
      async metrics(from) {
        const res = await fetch(`${from?.url ?? apiUrl()}/metrics`);
        return parseMetrics(await res.text());
      },
      async faults(spec, hub) {
        const target = kube(hub).target;
        await requestJson(target, {
          method: spec ? 'PUT' : 'DELETE',
          path: '/_sim/faults',
          ...(spec ? { body: spec } : {}),
        });
      },
      async eventsFor(namespace, reason, hub) {
        const list = await kube(hub).list(EVENTS, namespace);
        return list.items.filter((e) => e.reason === reason).map((e) => String(e.involvedObject?.name));
      },
      logsAbout(text, limit = 20) {
        return [...started, ...roles].flatMap((p) => {
          let lines: string[];
          try {
            lines = readFileSync(p.logFile, 'utf8').split('\n');
          } catch {
            return [];
          }
          return lines
            .filter((l) => l.includes(text))
            .slice(-limit)
            .map((l) => `${p.name}: ${l}`);
        });
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function messageOf(line: string): string {
  try {
    return (JSON.parse(line) as { msg?: string }).msg ?? '';
  } catch {
    return '';
  }
}

/** Prometheus text format: `name{labels} value` per sample line. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/**
 * Checks `check` until it holds (the harness watches processes it does not own, from outside, as an operator would:
 * through the API, metrics and the hub), failing after `timeoutMs`.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The api's informer may not show what the drill wrote to the hub a moment ago: it answers 4xx until it does. */
export async function retryUntilSeen<T>(send: () => Promise<ApiAnswer<T>>): Promise<ApiAnswer<T>> {
  for (let i = 0; ; i++) {
    const res = await send();
    if (res.status < 400 || res.status >= 500 || i >= 50) return res;
    await new Promise((r) => setTimeout(r, 200));
  }
}
