// Beekeeper's roles as the image runs them, for benches that measure a role rather than code: `npm run build`,
// then `node dist/main/<role>.js` in its own OS process with the Dockerfile's NODE_OPTIONS (its V8 heap cap decides
// how much garbage a role carries between full GCs), on a simulated hub and the bench's Redis under its own prefix.
// `runtime: 'tsx'` starts the role from src/ under tsx instead (`npm run start:<role>`; tsx alone costs ~40 MB per
// process and some CPU at start-up).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestClock } from '../src/clock.js';
import { loadConfig, withEmbeddedHub } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { freePort } from '../src/redis/bootstrap.js';
import { prepareEmbeddedHub } from '../src/system/embedded-hub.js';
import { parseDockerfile, parsePairs } from '../test/deploy/dockerfile-parse.js';
import { HUB, REDIS_URL } from './bed.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The NODE_OPTIONS of the image's runtime stage (its ENV steps). */
export const IMAGE_NODE_OPTIONS: string =
  (
    Object.assign(
      {},
      ...parseDockerfile(readFileSync(join(repo, 'Dockerfile'), 'utf8'))
        .at(-1)!
        .steps.filter((step) => step.keyword === 'ENV')
        .map((step) => parsePairs(step.args)),
    ) as Record<string, string>
  ).NODE_OPTIONS ?? '';

let built = false;
/** The production build, once per bench process: a dist/ left from an older checkout would measure other code. */
export function buildOnce(): void {
  if (built) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

/**
 * The simulated hub made ready for roles started from outside: its kubeconfig written to `dir`, Beekeeper's CRDs and
 * namespace applied (as `kubectl apply -f deploy/crds/` would). Returns the roles' `BEEKEEPER_HUBS`.
 */
export async function prepareHubForRoles(kubeconfigText: string, dir: string, redisPrefix: string): Promise<string> {
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText);
  const config = withEmbeddedHub(loadConfig({ REDIS_URL, BEEKEEPER_REDIS_PREFIX: redisPrefix }), {
    name: HUB,
    kubeconfigData: kubeconfigText,
  });
  await prepareEmbeddedHub({
    hub: config.hubs[0]!,
    namespace: config.stateNamespace,
    clock: createTestClock(),
    log: createLogger({ level: 'silent' }),
  });
  return `${HUB}=${kubeconfig}`;
}

export type RoleName = 'api' | 'worker';

export interface RoleProcess {
  process: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port>: the API (api role) or its probes and metrics (worker). */
  base: string;
  /** Whether it has exited (a bench waiting for it to be ready stops waiting: its stderr says why). */
  exited(): boolean;
  stop(): Promise<void>;
}

export interface RoleOptions {
  /** `BEEKEEPER_HUBS`, e.g. `east=/tmp/kubeconfig` (prepareHubForRoles). */
  hubs: string;
  redisUrl: string;
  redisPrefix: string;
  runtime?: 'node' | 'tsx';
  nodeOptions?: string;
  /** Flags for `node` that NODE_OPTIONS may not carry (`--cpu-prof`, to profile the role). */
  nodeArgs?: string[];
  /** More environment (over open access; everything else at its default, as the image runs it). */
  env?: Record<string, string>;
}

export function stopChild(p: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => {
      console.error(`pid ${p.pid} still running 25 s after SIGTERM: killed`);
      p.kill('SIGKILL');
    }, 25_000).unref();
  });
}

/** Starts `name` listening on a free loopback port; resolves once the process is spawned (not yet ready). */
export async function startRole(name: RoleName, opts: RoleOptions): Promise<RoleProcess> {
  const tsx = opts.runtime === 'tsx';
  if (!tsx) buildOnce();
  const port = await freePort();
  const args = [
    ...(opts.nodeArgs ?? []),
    ...(tsx ? ['--import', 'tsx', join(repo, `src/main/${name}.ts`)] : [join(repo, `dist/main/${name}.js`)]),
  ];
  const p = spawn(process.execPath, args, {
    env: {
      ...process.env,
      NODE_OPTIONS: opts.nodeOptions ?? IMAGE_NODE_OPTIONS,
      REDIS_URL: opts.redisUrl,
      BEEKEEPER_REDIS_PREFIX: opts.redisPrefix,
      BEEKEEPER_HUBS: opts.hubs,
      BEEKEEPER_AUTH_OPEN: 'true',
      PORT: String(port),
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    process: p,
    pid: p.pid!,
    base: `http://127.0.0.1:${port}`,
    exited: () => p.exitCode !== null || p.signalCode !== null,
    stop: () => stopChild(p),
  };
}
