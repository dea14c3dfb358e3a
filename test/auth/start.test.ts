// Secure by default, as real processes: `npm start` makes an admin token and prints it once as a line to paste; a
// deployed api role with no way to sign in refuses to start and says how, unless open access is said explicitly.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { compiledMain } from '../support/compiled-src.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bk-auth-start-'));
const children: ChildProcess[] = [];
let sim: Simulator | undefined;

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sim?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The environment of a fresh shell: none of Beekeeper's settings from the one running the tests. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(BEEKEEPER_|LOG_LEVEL$|PORT$)/.test(k)),
  );
  return {
    ...clean,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-auth-start-${randomUUID().slice(0, 8)}}`,
    PORT: '0',
    ...env,
  };
}

function run(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, compiledMain(entry), {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 45_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = stdout.match(pattern);
        if (m) {
          clearInterval(timer);
          resolve(m);
        } else if (child.exitCode !== null || Date.now() > deadline) {
          clearInterval(timer);
          reject(new Error(`no ${pattern} (exit ${child.exitCode}):\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
        }
      }, 50);
      const deadline = Date.now() + timeoutMs;
    });
  return { child, exited, waitFor, out: () => stdout, err: () => stderr };
}

async function stop(p: ReturnType<typeof run>) {
  p.child.kill('SIGTERM');
  return p.exited;
}

describe('npm start (embedded)', () => {
  it('prints one export BEEKEEPER_TOKEN line; that token signs in as a platform admin, nothing else does', async () => {
    const p = run('all-in-one', { BEEKEEPER_SIM_KUBECONFIG: join(tmp, 'embedded.kubeconfig') });
    const [, base] = await p.waitFor(/API:\s+(http:\/\/\S+?)\/v1\b/);
    const lines = p.out().match(/^export BEEKEEPER_TOKEN=(\S+)$/gm) ?? [];
    expect(lines).toHaveLength(1);
    const token = lines[0]!.slice('export BEEKEEPER_TOKEN='.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.out()).toContain(`curl -H "Authorization: Bearer $BEEKEEPER_TOKEN" ${base}/v1/clusters`);
    const signed = await fetch(`${base}/v1/clusters`, { headers: { authorization: `Bearer ${token}` } });
    expect(signed.status).toBe(200);
    const anonymous = await fetch(`${base}/v1/clusters`);
    expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="beekeeper"']);
    // The dashboard takes it as HTTP Basic (user admin), which a browser prompts for.
    const basic = Buffer.from(`admin:${token}`).toString('base64');
    expect((await fetch(`${base}/admin/queues`, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
    expect(await stop(p)).toBe(0);
    // Printed once for the person at the terminal, never logged.
    expect(p.out().split(token)).toHaveLength(2);
    expect(p.err()).not.toContain(token);
  }, 60_000);

  it('makes no token when open access is configured', async () => {
    const p = run('all-in-one', {
      BEEKEEPER_SIM_KUBECONFIG: join(tmp, 'open.kubeconfig'),
      BEEKEEPER_AUTH_OPEN: 'true',
    });
    const [, base] = await p.waitFor(/API:\s+(http:\/\/\S+?)\/v1\b/);
    expect(p.out()).not.toContain('BEEKEEPER_TOKEN=');
    expect((await fetch(`${base}/v1/clusters`)).status).toBe(200);
    expect(await stop(p)).toBe(0);
  }, 60_000);
});

describe('the api role on its own', () => {
  it('refuses to start without a way to sign in, and says how', async () => {
    const p = run('api', { BEEKEEPER_HUBS: 'east=/nonexistent/kubeconfig' });
    expect(await p.exited).toBe(2);
    const said = p.err();
    for (const how of [
      'BEEKEEPER_API_TOKENS',
      'BEEKEEPER_API_TOKENS_FILE',
      'BEEKEEPER_API_TOKENS_SECRET',
      'BEEKEEPER_OIDC_ISSUER',
      'BEEKEEPER_TOKENREVIEW_HUB',
      'BEEKEEPER_AUTH_OPEN=true',
    ])
      expect(said).toContain(how);
  }, 30_000);

  it('starts open with BEEKEEPER_AUTH_OPEN=true, on 127.0.0.1 unless told otherwise', async () => {
    sim = await startSimulator({ hubNames: ['east'], controllers: false });
    const kubeconfig = join(tmp, 'east.kubeconfig');
    writeFileSync(kubeconfig, sim.kubeconfigYaml(), { mode: 0o600 });
    const commit = '0123456789abcdef0123456789abcdef01234567'; // what the image build sets
    const p = run('api', {
      BEEKEEPER_HUBS: `east=${kubeconfig}`,
      BEEKEEPER_AUTH_OPEN: 'true',
      BEEKEEPER_COMMIT: commit,
    });
    const [, url] = await p.waitFor(/"url":"(http:\/\/[^"]+)\/v1"[^\n]*"msg":"API listening"/);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/v1/hubs`)).status).toBe(200);
    // Which build runs: in the first log line and at /version (docs/upgrades.md).
    const first = JSON.parse(p.out().split('\n')[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ msg: 'Beekeeper starting', roles: ['api'], version: expect.any(String), commit });
    expect(await (await fetch(`${url}/version`)).json()).toMatchObject({ version: first.version, commit });
    expect(await stop(p)).toBe(0);
  }, 60_000);
});
