// The beekeeper CLI against a running API (two-hub simulator, real Redis): in-process for the details, and once
// through bin/beekeeper.js as a CI job would run it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSelector } from '../../src/cli/args.js';
import { runCli } from '../../src/cli/run.js';
import type { Lease } from '../../src/hive/claims/heartbeat.js';
import type { ClusterPool } from '../../src/hive/pools/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { poolRequest, startClaimsHarness, type ClaimsHarness } from '../claims/support.js';

const run = promisify(execFile);
let h: ClaimsHarness;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'beekeeper-cli-'));

async function cli(args: string[], opts: { signal?: AbortSignal; onErr?: (line: string) => void } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { BEEKEEPER_URL: url },
    out: (t) => out.push(t),
    err: (t) => {
      err.push(t);
      opts.onErr?.(t);
    },
    writeSecretFile: async (path, text) => (await import('node:fs/promises')).writeFile(path, text, { mode: 0o600 }),
    signal: opts.signal ?? new AbortController().signal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  h = await startClaimsHarness();
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
  for (const p of [
    poolRequest('hub-1', 'warm', { size: 2, runningCount: 2, claimLifetime: { maximum: '3h' } }),
    poolRequest('hub-2', 'empty', { size: 0 }),
    poolRequest('hub-2', 'cold', { runningCount: 0 }),
  ]) {
    expect((await h.app.inject({ method: 'POST', url: '/v1/pools', payload: p })).statusCode).toBe(201);
  }
  await h.store.waitFor<ClusterPool, true>(
    'ClusterPool',
    { hub: 'hub-1', namespace: 'ci', name: 'warm' },
    (p) => ((p?.status?.ready ?? 0) >= 2 ? true : undefined),
    { timeoutMs: 30_000 },
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('beekeeper CLI', () => {
  it('refuses bad usage with exit code 2 and the usage text', async () => {
    expect((await cli(['claim'])).code).toBe(2);
    expect((await cli(['claim', '--pool', 'p', '--selector', 'a=b'])).err).toContain('give --pool P or --selector');
    expect((await cli(['status', 'not-an-id'])).err).toContain('use hub/namespace/name');
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['--help'])).code).toBe(0);
    expect(parseSelector(['platform=aws,version=4.16', 'arch=arm64', 'tier=ci'])).toEqual({
      platform: 'aws',
      version: '4.16',
      architecture: 'arm64',
      labels: { tier: 'ci' },
    });
  });

  it('claims, waits, writes the kubeconfig, extends within the cap and releases', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const claimed = await cli([
      'claim',
      '--pool',
      'hub-1/ci/warm',
      '--lifetime',
      '1h',
      '--wait',
      '60s',
      '--kubeconfig-out',
      kubeconfig,
      '--json',
    ]);
    expect(claimed.code, claimed.err).toBe(0);
    const view = JSON.parse(claimed.out);
    expect(view).toMatchObject({ phase: 'Running', pool: 'hub-1/ci/warm', kubeconfig });
    expect(claimed.err).toContain(`claimed ${view.id} from hub-1/ci/warm`);
    expect(readFileSync(kubeconfig, 'utf8')).toContain('clusters:');
    expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);

    const extended = await cli(['extend', view.id, '--by', '30m']);
    expect(extended.code, extended.err).toBe(0);
    expect(extended.out).toContain('is now 1h30m');
    const refused = await cli(['extend', view.id, '--by', '2h']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('extendBy: would make the lifetime 3h30m, beyond the maximum 3h');
    // Who and why land in the claim's lifetime history; --by stays the duration it always was.
    const why = await cli([
      'extend',
      view.id,
      '--by',
      '15m',
      '--as',
      'ci-bot',
      '--reason',
      'flaky suite rerun',
      '--json',
    ]);
    expect(why.code, why.err).toBe(0);
    const entry = { action: 'extend', by: 'ci-bot', reason: 'flaky suite rerun', from: '1h30m', to: '1h45m' };
    expect(JSON.parse(why.out).lifetimeHistory.at(-1)).toMatchObject(entry);
    const [hub, ns, name] = view.id.split('/');
    const stored = await h.store.get<KubeObject>('ClusterClaim', { hub, namespace: ns, name });
    expect(JSON.parse(stored!.metadata.annotations!['beekeeper.io/lifetime-history']!).at(-1)).toMatchObject({
      ...entry,
      via: 'PATCH /v1/claims/:hub/:namespace/:name',
    });
    const blank = await cli(['extend', view.id, '--by', '15m', '--as', ' ']);
    expect(blank.code).toBe(2);
    expect(blank.err).toContain('--as');

    const noBeat = await cli(['heartbeat', view.id, '--once']);
    expect(noBeat.code).toBe(1);
    expect(noBeat.err).toContain('needs no heartbeat');

    const hibernated = await cli(['hibernate', view.cluster.id, '--wait', '60s']);
    expect(hibernated.code, hibernated.err).toBe(0);
    expect(hibernated.out).toBe(`hibernate ${view.cluster.id}: completed`);
    const asleep = await cli(['status', view.id, '--json']);
    expect(JSON.parse(asleep.out)).toMatchObject({
      phase: 'Hibernating',
      message: `cluster ${view.cluster.id.split('/')[1]} is hibernating; resume it to use it`,
    });
    const resumed = await cli(['resume', view.cluster.id, '--wait', '60s']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain('WaitingForNodes');

    const printed = await cli(['kubeconfig', view.id]);
    expect(printed.out).toBe(readFileSync(kubeconfig, 'utf8'));
    const again = join(dir, 'kubeconfig-again');
    expect((await cli(['kubeconfig', view.id, '--out', again])).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(printed.out);
    expect(statSync(again).mode & 0o777).toBe(0o600);

    const released = await cli(['release', view.id, '--wait', '30s']);
    expect(released.code, released.err).toBe(0);
    expect(released.out).toMatch(/released \(job .+: completed\)/);
  });

  it('prints the resume steps while waiting on a hibernating pool', async () => {
    await h.store.waitFor<ClusterPool, true>(
      'ClusterPool',
      { hub: 'hub-2', namespace: 'ci', name: 'cold' },
      (p) => (p?.status?.standby === 1 ? true : undefined),
      { timeoutMs: 30_000 },
    );
    const claimed = await cli(['claim', '--pool', 'hub-2/ci/cold', '--wait', '60s']);
    expect(claimed.code, claimed.err).toBe(0);
    expect(claimed.err).toMatch(/Pending: no ready cluster; cold-\w+ is resuming, step [1-4]\/4: /);
    expect(claimed.out).toMatch(/^phase {5}Running: cluster cold-\w+ is running$/m);
    expect(claimed.out).toMatch(/^api {7}https:\/\/api\.cold-/m);
    const id = /^claim {5}(\S+)$/m.exec(claimed.out)![1]!;
    expect((await cli(['release', id])).code).toBe(0);
  });

  it('heartbeats every interval until stopped', async () => {
    const claimed = await cli(['claim', '--pool', 'hub-1/ci/warm', '--heartbeat-timeout', '2m', '--json']);
    const id = JSON.parse(claimed.out).id;
    const stop = new AbortController();
    let beats = 0;
    const code = await cli(['heartbeat', id, '--every', '1s'], {
      signal: stop.signal,
      onErr: (l) => l.includes('renewed') && ++beats === 2 && stop.abort(),
    });
    expect(code.code).toBe(0);
    expect(beats).toBe(2);
    expect((await cli(['release', id])).code).toBe(0);
  });

  it('exits 3 when no cluster runs within --wait, and releases the pending claim', async () => {
    const timedOut = await cli(['claim', '--pool', 'hub-2/ci/empty', '--wait', '2s', '--json']);
    expect(timedOut.code).toBe(3);
    expect(timedOut.err).toContain('not running within --wait');
    // The claim is given back, so stdout holds none; stderr named it at once.
    expect(timedOut.out).toBe('');
    const id = /claimed (\S+) from/.exec(timedOut.err)![1]!;
    const [hub, namespace, name] = id.split('/') as [string, string, string];
    await h.store.waitFor(
      'ClusterClaim',
      { hub, namespace, name },
      (c) => (!c || c.metadata.deletionTimestamp ? true : undefined),
      { timeoutMs: 10_000 },
    );

    // `status --wait` tells a timeout (3) from a claim that is fine (0), and keeps the claim.
    const kept = await cli(['claim', '--pool', 'hub-2/ci/empty', '--json']);
    const keptId = JSON.parse(kept.out).id as string;
    const waited = await cli(['status', keptId, '--wait', '1s']);
    expect(waited.code).toBe(3);
    expect(waited.out).toMatch(/^phase {5}Pending: /m);
    expect((await cli(['status', keptId])).code).toBe(0);
    expect((await cli(['release', keptId])).code).toBe(0);
  });

  it('heartbeats while `claim --wait` waits, so a wait longer than the heartbeat timeout keeps the claim', async () => {
    // The Lease's deadline runs from the claim's creation. 45 s pass on the hub's clock as soon as the claim exists;
    // the waiting CLI must renew the Lease then, or the reaper releases the claim at 60 s while the CLI still waits.
    const claimed = await cli(
      ['claim', '--pool', 'hub-2/ci/empty', '--heartbeat-timeout', '1m', '--wait', '2s', '--keep-on-timeout', '--json'],
      {
        onErr: (line) => line.startsWith('claimed ') && h.clock.advance(45_000),
      },
    );
    const id = /claimed (\S+) from/.exec(claimed.err)![1]!;
    const [hub, namespace, name] = id.split('/') as [string, string, string];
    const lease = await h.store.get<Lease>('Lease', { hub, namespace, name: `beekeeper-claim-${name}` });
    expect(Date.parse(lease!.spec.renewTime!) - Date.parse(lease!.spec.acquireTime!)).toBeGreaterThanOrEqual(45_000);
    expect((await cli(['release', id])).code).toBe(0);
  });

  it('releases the claim itself when it fails after claiming (here: the kubeconfig cannot be written)', async () => {
    const failed = await cli([
      'claim',
      '--pool',
      'hub-1/ci/warm',
      '--wait',
      '60s',
      '--kubeconfig-out',
      join(dir, 'no-such-dir', 'kubeconfig'),
    ]);
    expect(failed.code).toBe(1);
    const id = /claimed (\S+) from/.exec(failed.err)![1]!;
    expect(failed.err).toContain(`released ${id}: the claim failed: ENOENT`);
    const [hub, namespace, name] = id.split('/') as [string, string, string];
    await h.store.waitFor(
      'ClusterClaim',
      { hub, namespace, name },
      (c) => (!c || c.metadata.deletionTimestamp ? true : undefined),
      { timeoutMs: 10_000 },
    );
  });

  it('finds the server and token in BEEKEEPER_URL and BEEKEEPER_TOKEN, flags override, and defaults to the embedded URL', async () => {
    const seen: Array<{ url: string; auth?: string }> = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(input), auth: (init?.headers as Record<string, string> | undefined)?.authorization });
      return fetch(input, init);
    }) as typeof fetch;
    const io = (env: Record<string, string | undefined>) => ({
      env,
      out: () => undefined,
      err: () => undefined,
      writeSecretFile: async () => undefined,
      signal: new AbortController().signal,
      fetch: recording,
    });

    expect(await runCli(['status', 'hub-1/ci/nope'], io({ BEEKEEPER_URL: url, BEEKEEPER_TOKEN: 'from-env' }))).toBe(1);
    expect(seen.pop()).toEqual({ url: `${url}/v1/claims/hub-1/ci/nope`, auth: 'Bearer from-env' });
    expect(
      await runCli(
        ['status', 'hub-1/ci/nope', '--url', url, '--token=from-flag'],
        io({ BEEKEEPER_URL: 'http://127.0.0.1:9', BEEKEEPER_TOKEN: 'from-env' }),
      ),
    ).toBe(1);
    expect(seen.pop()).toEqual({ url: `${url}/v1/claims/hub-1/ci/nope`, auth: 'Bearer from-flag' });
    const errors: string[] = [];
    const unset = { ...io({}), err: (t: string) => errors.push(t) };
    expect(
      await runCli(['status', 'hub-1/ci/nope'], {
        ...unset,
        fetch: async (input) => (seen.push({ url: String(input) }), Promise.reject(new TypeError('fetch failed'))),
      }),
    ).toBe(1);
    expect(seen.pop()).toEqual({ url: 'http://127.0.0.1:8080/v1/claims/hub-1/ci/nope' });
    expect(errors.join('\n')).toContain('cannot reach Beekeeper at http://127.0.0.1:8080');
  });

  it('works as `beekeeper` from the repository, finding the server in BEEKEEPER_URL', async () => {
    const env = { ...process.env, BEEKEEPER_URL: url };
    const claimed = await run(
      'node',
      ['bin/beekeeper.js', 'claim', '--selector', 'hub=hub-1', '--wait', '60s', '--json'],
      { env },
    );
    const view = JSON.parse(claimed.stdout);
    expect(view.phase).toBe('Running');
    const released = await run('node', ['bin/beekeeper.js', 'release', view.id], { env });
    expect(released.stdout).toContain(`${view.id} released`);
    const missing = await run('node', ['bin/beekeeper.js', 'status', 'hub-1/ci/nope'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('404 claim hub-1/ci/nope not found') });
  }, 30_000);
});
