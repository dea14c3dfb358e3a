// docker-compose.yml as a user runs it, without Docker (these machines have no container engine): the processes it
// describes are started from this checkout with its commands, environment and health checks, and the README's curl
// examples run against them as written. The file's static checks are in compose.test.ts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { dropKeys } from '../../src/system/embedded-prefix.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommands, datesAhead, readmeBlock, runCurl, type CurlAnswer } from '../support/readme.js';
import { ROOT, loadCompose, type Service } from './compose-file.js';
import { compiledMain } from '../support/compiled-src.js';

const TOKEN = randomBytes(32).toString('hex');
const compose = loadCompose(['docker-compose.yml'], { BEEKEEPER_TOKEN: TOKEN });
const ROLES = ['api', 'worker', 'scheduler'];
const service = (name: string) => compose.services[name]!;

// ---- The services as processes of this checkout ------------------------------------------------------------
// Docker's part is played by a small map: a service's host name (and 0.0.0.0) is 127.0.0.1 here, a named volume is
// a directory, every container port gets a free one, `dist/main/<x>.js` is src/ compiled for the test run
// (test/support/compiled-src.ts). The shared Redis takes a key prefix of this run. Only the simulator's pace
// differs: 10 times the compose file's, so that installs take seconds.
const RUN = randomUUID().slice(0, 8);
const PREFIX = `{bk-compose-${RUN}}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The volumes, and the directory the README's commands run in. */
let tmp = '';
const processes: Array<{ name: string; child: ChildProcess; output: () => string; exited: Promise<unknown> }> = [];
let B = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The rewrites that make one container's view of the world this machine's. */
function localizer(name: string, s: Service, ports: Map<number, number>): (text: string) => string {
  const hosts = Object.keys(compose.services);
  const mounts = (s.volumes ?? []).map((v) => {
    const [volume, target] = v.split(':') as [string, string];
    mkdirSync(join(tmp, volume), { recursive: true });
    return [target.replace(/\/?$/, '/'), `${join(tmp, volume)}/`] as const;
  });
  return (text) => {
    let out = text.replace(/\b0\.0\.0\.0\b/g, '127.0.0.1').replace(/\bredis:6379\b/g, new URL(REDIS_URL).host);
    for (const host of hosts) out = out.replaceAll(`//${host}:`, '//127.0.0.1:');
    for (const [target, dir] of mounts) out = out.replaceAll(target, dir);
    for (const [container, local] of ports) out = out.replace(new RegExp(`\\b${container}\\b`, 'g'), String(local));
    return out;
  };
}

function start(name: string, s: Service, ports: Map<number, number>) {
  const local = localizer(name, s, ports);
  const [entry, ...args] = s.command!.map(local);
  // A host name given as a flag's value (`--advertise-host sim`).
  for (let i = 1; i < args.length; i++)
    if (args[i - 1]!.endsWith('-host') && args[i]! in compose.services) args[i] = '127.0.0.1';
  const main = compiledMain(entry!.replace(/^dist\/main\/(.+)\.js$/, '$1'));
  const speed = args.indexOf('--speed');
  if (speed >= 0) args[speed + 1] = String(Number(args[speed + 1]) * 10);
  const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, local(String(v))]));
  const child = spawn(process.execPath, [...main, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env, ...(name === 'sim' ? {} : { BEEKEEPER_REDIS_PREFIX: PREFIX }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const proc = { name, child, output: () => output, exited };
  processes.push(proc);
  return { ...proc, healthcheck: s.healthcheck!.test.map(local) };
}

/** Runs the service's own health check (`CMD node -e ...`) until it passes, as Docker does. */
async function healthy(proc: ReturnType<typeof start>, timeoutMs: number): Promise<void> {
  const [kind, command, ...args] = proc.healthcheck;
  expect([kind, command]).toEqual(['CMD', 'node']);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = await new Promise<number>((resolve) =>
      execFile(process.execPath, args, { timeout: 3000 }, (err) => resolve(err ? 1 : 0)),
    );
    if (code === 0) return;
    const tail = proc.output().split('\n').slice(-20).join('\n');
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}):\n${tail}`);
    if (Date.now() > deadline) throw new Error(`${proc.name} not healthy within ${timeoutMs} ms:\n${tail}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The curl commands of one README block, in order, as written; a `<id>` or `<claim>` is what an earlier answer
 * named (the reader's copy and paste). Streams (`curl -sN`, Server-Sent Events until a job ends) are left out.
 */
const seen: { id?: string; claim?: string } = {};
async function runReadme(heading: string): Promise<CurlAnswer[]> {
  const answers: CurlAnswer[] = [];
  // `<id>` and `<claim>` as a reader would paste them (bash would read them as redirections).
  const block = datesAhead(readmeBlock(heading, 'sh')).replace(/<(id|claim)>/g, '__$1__');
  for (const command of await curlCommands(block, { base: B, token: TOKEN, cwd: tmp })) {
    if (command.includes('-sN')) continue;
    const filled = command.map((a) =>
      a.replace('__id__', seen.id ?? '<id>').replace('__claim__', seen.claim ?? '<claim>'),
    );
    const answer = await runCurl(filled, B);
    expect(answer.status, `${answer.command}: ${answer.text.slice(0, 800)}`).toBeLessThan(300);
    seen.id =
      /\/v1\/jobs\/([^/?]+)$/.exec(answer.headers.get('location') ?? '')?.[1] ?? answer.json?.job?.id ?? seen.id;
    if (answer.command.startsWith('POST /v1/claims')) seen.claim ??= answer.json.id.split('/')[2];
    answers.push(answer);
  }
  return answers;
}

describe('compose without Docker: the processes it describes serve the README as written', () => {
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'bk-compose-'));
    // The simulator's hubs listen on consecutive ports (hub i on port + i), as the compose file publishes them.
    const simPorts = (service('sim').ports ?? []).map((p) => Number(p.split(':').at(-1)));
    let base = 0;
    while (!base) {
      const p = await freePort();
      if (p + simPorts.length < 65536 && (await Promise.all(simPorts.map((_, i) => portIsFree(p + i)))).every(Boolean))
        base = p;
    }
    const sim = start('sim', service('sim'), new Map(simPorts.map((port, i) => [port, base + i])));
    await healthy(sim, 120_000);

    // Each role listens on PORT in its own container; here each process on a port of its own.
    const roles: Array<ReturnType<typeof start>> = [];
    for (const role of ROLES)
      for (let replica = 0; replica < (service(role).deploy?.replicas ?? 1); replica++) {
        const port = await freePort();
        if (role === 'api') B = `http://127.0.0.1:${port}`;
        roles.push(
          start(`${role}-${replica + 1}`, service(role), new Map([[Number(service(role).environment!.PORT), port]])),
        );
      }
    await Promise.all(roles.map((r) => healthy(r, 120_000)));
  }, 240_000);

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(
      processes.map((p) =>
        Promise.race([p.exited, new Promise((r) => setTimeout(r, 15_000))]).then(() => {
          if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
        }),
      ),
    );
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      await dropKeys(redis, PREFIX);
    } finally {
      redis.disconnect();
    }
  }, 40_000);

  it('the simulator wrote the kubeconfig the roles read, for the hubs local and west, with Beekeeper installed', async () => {
    const hubs = await runCurl(['-s', '-H', `Authorization: Bearer ${TOKEN}`, `${B}/v1/hubs`], B);
    expect(hubs.json.items).toEqual([
      expect.objectContaining({ name: 'local', reachable: true, hiveCrdsPresent: true }),
      expect.objectContaining({ name: 'west', reachable: true, hiveCrdsPresent: true }),
    ]);
    expect(processes.map((p) => p.name)).toEqual(['sim', 'api-1', 'worker-1', 'worker-2', 'scheduler-1']);
  });

  it('"Hubs and clusters": list, create and wait, read, hibernate, resume, expiry, kubeconfig, credentials, delete', async () => {
    const answers = await runReadme('### Hubs and clusters');
    expect(answers).toHaveLength(14);
    expect(answers[4]!.json.job).toMatchObject({ type: 'cluster.create', state: 'completed' });
    expect(answers.at(-1)!.json.job).toMatchObject({ type: 'cluster.delete', state: 'completed' });
  }, 60_000);

  it('"Jobs": list and wait on a job by id', async () => {
    const answers = await runReadme('### Jobs');
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
  });

  it('"Pools and claims": pools, resize, claim by name and by attributes, wait, kubeconfig, extend, heartbeat, release', async () => {
    const answers = await runReadme('### Pools and claims');
    expect(answers.length).toBeGreaterThanOrEqual(10);
    expect(answers.find((a) => a.command.includes('?wait=300'))!.json.phase).toBe('Running');
  }, 60_000);

  it('"Schedules, overrides and expiry": every command on the demo cluster team-web/web-1', async () => {
    const answers = await runReadme('## Schedules, overrides and expiry');
    expect(answers).toHaveLength(11);
  }, 60_000);

  it('"Operations": health, readiness, metrics and the contract, unsigned', async () => {
    const answers = await runReadme('### Operations');
    expect(answers.map((a) => a.command)).toEqual(['GET /healthz', 'GET /readyz', 'GET /metrics', 'GET /openapi.json']);
  });
});
