// The `beekeeper` CLI as a CI image gets it: `npm run build:cli`, `npm pack` of packages/cli, the tarball installed
// into an empty project offline with an empty npm cache (any dependency would fail to install), and its bin run,
// with no HOME and nothing but PATH and BEEKEEPER_URL in its environment, through the CI flow against a running
// Beekeeper (two-hub simulator, real Redis): claim --wait, kubeconfig, release.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ClusterPool } from '../../src/hive/pools/types.js';
import { poolRequest, startClaimsHarness, type ClaimsHarness } from '../claims/support.js';

const exec = promisify(execFile);
const repo = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'beekeeper-cli-package-'));
const project = join(dir, 'ci-image');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };

let h: ClaimsHarness | undefined;
let url: string;
let packed: { name: string; version: string; filename: string; files: Array<{ path: string }> };
let built: string;

/** The installed `beekeeper` as a CI step runs it: exit code, stdout, stderr. */
async function beekeeper(args: string[]) {
  const bin = join(project, 'node_modules', '.bin', 'beekeeper');
  const env = { PATH: process.env.PATH, BEEKEEPER_URL: url };
  return exec(bin, args, { cwd: project, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

async function buildPackAndInstall() {
  built = (await exec('npm', ['run', '--silent', 'build:cli'], { cwd: repo })).stdout;
  const pack = await exec('npm', ['pack', './packages/cli', '--pack-destination', dir, '--json'], { cwd: repo });
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ci-image', private: true }));
  const cache = join(dir, 'empty-npm-cache');
  await exec('npm', ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund', join(dir, packed.filename)], {
    cwd: project,
  });
}

async function startBeekeeper() {
  h = await startClaimsHarness();
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
  const pool = poolRequest('hub-1', 'e2e', { size: 1, runningCount: 1 });
  expect((await h.app.inject({ method: 'POST', url: '/v1/pools', payload: pool })).statusCode).toBe(201);
  await h.store.waitFor<ClusterPool, true>(
    'ClusterPool',
    { hub: 'hub-1', namespace: 'ci', name: 'e2e' },
    (p) => ((p?.status?.ready ?? 0) >= 1 ? true : undefined),
    { timeoutMs: 30_000 },
  );
}

beforeAll(async () => {
  await Promise.all([buildPackAndInstall(), startBeekeeper()]);
}, 60_000);

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('packs one file and its manifest at the service version, and installs offline with no dependency', () => {
  expect(built).toMatch(/wrote packages\/cli\/dist\/beekeeper\.js \(\d+\.\d KiB\)/);
  expect(packed).toMatchObject({ name: '@beekeeper/cli', version, filename: `beekeeper-cli-${version}.tgz` });
  expect(packed.files.map((f) => f.path).sort()).toEqual(['README.md', 'dist/beekeeper.js', 'package.json']);
  // Only the CLI itself landed in the empty project: nothing else was needed, nothing else could be fetched.
  expect(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['@beekeeper']);
  expect(readdirSync(join(project, 'node_modules', '@beekeeper'))).toEqual(['cli']);
  const installed = join(project, 'node_modules', '@beekeeper', 'cli', 'dist', 'beekeeper.js');
  expect(readFileSync(installed, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  expect(statSync(installed).size).toBeLessThan(100 * 1024);
});

it('runs the CI flow from the installed bin: claim --wait with a kubeconfig, kubeconfig, release', async () => {
  const kubeconfig = join(dir, 'kubeconfig');
  const claimed = await beekeeper([
    'claim',
    '--pool',
    'hub-1/ci/e2e',
    '--lifetime',
    '1h',
    '--wait',
    '60s',
    '--kubeconfig-out',
    kubeconfig,
    '--json',
  ]);
  expect(claimed.code, claimed.stderr).toBe(0);
  const view = JSON.parse(claimed.stdout);
  expect(view).toMatchObject({ phase: 'Running', pool: 'hub-1/ci/e2e', kubeconfig });
  expect(claimed.stderr).toContain(`claimed ${view.id} from hub-1/ci/e2e`);
  expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);

  const printed = await beekeeper(['kubeconfig', view.id]);
  expect(printed.code, printed.stderr).toBe(0);
  expect(printed.stdout).toContain('clusters:');
  expect(printed.stdout).toBe(`${readFileSync(kubeconfig, 'utf8')}\n`);

  const released = await beekeeper(['release', view.id, '--wait', '30s']);
  expect(released.code, released.stderr).toBe(0);
  expect(released.stdout).toMatch(new RegExp(`^${view.id} released \\(job .+: completed\\)\\n$`));
  const again = await beekeeper(['release', view.id]);
  expect(again).toMatchObject({ code: 0, stderr: `${view.id} is already gone; nothing to release\n` });

  const missing = await beekeeper(['status', 'hub-1/ci/nope']);
  expect(missing).toMatchObject({ code: 1, stderr: 'beekeeper: 404 claim hub-1/ci/nope not found\n' });
  const usage = await beekeeper(['claim']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('usage: beekeeper <command> [flags]');
});

it('makes an API token without a server, as an operator does from the same package', async () => {
  const made = await beekeeper([
    'token',
    'new',
    '--name',
    'ci-bot',
    '--team',
    'payments',
    '--role',
    'operator',
    '--json',
  ]);
  expect(made.code, made.stderr).toBe(0);
  const { token, entry } = JSON.parse(made.stdout);
  expect(entry).toEqual({
    name: 'ci-bot',
    tokenSha256: createHash('sha256').update(token).digest('hex'),
    team: 'payments',
    role: 'operator',
  });
  const refused = await beekeeper(['token', 'new', '--name', 'ci-bot', '--team', 'Payments', '--role', 'operator']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--team "Payments" is not a DNS label');
});
