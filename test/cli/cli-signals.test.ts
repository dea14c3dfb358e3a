// `beekeeper claim --wait` as a CI job runs it, in its own process, and what a script sees when the job is cancelled
// or the wait ends: the pending claim is released, the exit code says why, and stdout holds a claim only while the
// caller holds one. Hive runs at its real pace (speed 1), so a claim on an empty pool waits for a 40-minute install.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterClaim, ClusterPool } from '../../src/hive/pools/types.js';
import { poolRequest, startClaimsHarness, type ClaimsHarness } from '../claims/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let h: ClaimsHarness;
let url: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `node bin/beekeeper.js …`; `onErr` sees stderr as it comes, with the process to signal. */
function cli(args: string[], onErr?: (stderr: string, kill: (signal: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/beekeeper.js'), ...args], {
      env: { ...process.env, BEEKEEPER_URL: url, BEEKEEPER_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onErr?.(stderr, (signal) => child.kill(signal));
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`beekeeper ${args.join(' ')} did not end\nstderr: ${stderr}`));
    }, 30_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const claimIdOf = (stderr: string) => /claimed (\S+) from/.exec(stderr)?.[1];

/** Resolves once the claim is being deleted (or, with `gone`, has gone), from informer events. */
async function released(id: string, gone = false) {
  const [hub, namespace, name] = id.split('/') as [string, string, string];
  await h.store.waitFor<ClusterClaim, true>(
    'ClusterClaim',
    { hub, namespace, name },
    (c) => (!c || (!gone && c.metadata.deletionTimestamp) ? true : undefined),
    { timeoutMs: 10_000 },
  );
}

beforeAll(async () => {
  h = await startClaimsHarness({ speed: 1 });
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
  expect(
    (
      await h.app.inject({
        method: 'POST',
        url: '/v1/pools',
        payload: poolRequest('hub-1', 'slow', { size: 0, runningCount: 0 }),
      })
    ).statusCode,
  ).toBe(201);
  await h.store.waitFor<ClusterPool, true>(
    'ClusterPool',
    { hub: 'hub-1', namespace: 'ci', name: 'slow' },
    (p) => (p?.status ? true : undefined),
    { timeoutMs: 10_000 },
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('beekeeper claim --wait, interrupted or timed out', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} while waiting releases the pending claim, exits ${code} and prints no claim`, async () => {
      let sent = false;
      const run = await cli(
        ['claim', '--pool', 'hub-1/ci/slow', '--heartbeat-timeout', '15m', '--wait', '45m', '--json'],
        (stderr, kill) => {
          // Once it reports where the claim stands, it is waiting. One signal: a second one ends it at once.
          if (!sent && /^Pending: /m.test(stderr)) kill(signal);
          sent ||= /^Pending: /m.test(stderr);
        },
      );
      const id = claimIdOf(run.stderr)!;
      expect({ code: run.code, signal: run.signal }, run.stderr).toEqual({ code, signal: null });
      expect(run.stderr).toContain(`released ${id}: interrupted (${signal})`);
      expect(run.stdout).toBe('');
      await released(id);
    });
  }

  it('exit 3 releases the claim and prints nothing on stdout; with --keep-on-timeout it prints the claim it keeps', async () => {
    const timedOut = await cli(['claim', '--pool', 'hub-1/ci/slow', '--wait', '1s', '--json']);
    expect(timedOut.code, timedOut.stderr).toBe(3);
    const id = claimIdOf(timedOut.stderr)!;
    expect(timedOut.stderr).toContain(`released ${id}: not running within --wait`);
    // The README's script does `jq -r '.id // empty'` and releases what it finds: it must find nothing.
    expect(timedOut.stdout).toBe('');
    await released(id);

    const kept = await cli(['claim', '--pool', 'hub-1/ci/slow', '--wait', '1s', '--keep-on-timeout', '--json']);
    expect(kept.code, kept.stderr).toBe(3);
    const view = JSON.parse(kept.stdout);
    expect(view).toMatchObject({ id: claimIdOf(kept.stderr), phase: 'Pending' });
    expect((await h.app.inject({ method: 'GET', url: `/v1/claims/${view.id}` })).json()).toMatchObject({
      phase: 'Pending',
    });

    // Releasing twice: the second finds it gone, says so, and succeeds.
    const first = await cli(['release', view.id]);
    expect(first.code, first.stderr).toBe(0);
    await released(view.id, true);
    const again = await cli(['release', view.id, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${view.id} is already gone; nothing to release`);
    expect(again.stdout).toBe('');
  }, 60_000);
});
