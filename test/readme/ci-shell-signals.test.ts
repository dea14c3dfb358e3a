// The README's "Shell" example of "Ephemeral clusters in CI", run with bash as written, cancelled the way a CI runner
// cancels a job: SIGTERM to the script. Whether it is waiting in `claim --wait` or running the tests, the claim is
// released, the heartbeat stops, and no beekeeper process is left behind to take a pool cluster later. Hive runs at
// its real pace (speed 1): a claim on the empty pool waits for a 40-minute install the test clock never reaches.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterClaim, ClusterPool } from '../../src/hive/pools/types.js';
import { installing, poolRequest, running, startClaimsHarness, type ClaimsHarness } from '../claims/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MINUTE = 60_000;
let h: ClaimsHarness;
let url: string;
const tmp = mkdtempSync(join(tmpdir(), 'bk-ci-signals-'));
/** Processes the script started, to end by id if a failed expectation leaves one behind. */
const leftovers = new Set<number>();

/** The first fenced block of `lang` after the README heading `heading`, as written. */
function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading ${heading}`);
  const fence = '```' + lang + '\n';
  const start = readme.indexOf(fence, at) + fence.length;
  return readme.slice(start, readme.indexOf('\n```', start));
}

/** The script with only what cannot run here swapped: the selector (a pool of this test) and `make test-e2e`. */
function shellScript(selector: string, tests: string): string {
  const script = readmeBlock('### Shell', 'sh');
  for (const part of ['--selector platform=aws,version=4.17,team=payments', 'make test-e2e', 'trap cleanup EXIT'])
    expect(script).toContain(part);
  return script.replace('platform=aws,version=4.17,team=payments', selector).replace('make test-e2e', tests);
}

interface Script {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  /** Resolves when the output matches. */
  printed(pattern: RegExp): Promise<void>;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function bash(script: string): Script {
  const child = spawn('bash', ['-c', script], {
    cwd: tmp,
    env: { ...process.env, BEEKEEPER_URL: url, BEEKEEPER_TOKEN: '', BEEKEEPER_HOME: ROOT },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Script = {
    child,
    stdout: '',
    stderr: '',
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(run.stdout + run.stderr)) return;
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          resolve();
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        child.once('close', () =>
          reject(new Error(`the script ended without printing ${pattern}:\n${run.stdout}\n${run.stderr}`)),
        );
        check();
      }),
    ended: new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal }))),
  };
  child.stdout.on('data', (d) => (run.stdout += d));
  child.stderr.on('data', (d) => (run.stderr += d));
  return run;
}

/** The script's child processes: pid and command line. */
function childrenOf(pid: number): Array<{ pid: number; args: string }> {
  let text: string;
  try {
    text = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [, p, args] = /^\s*(\d+)\s+(.*)$/.exec(l)!;
      return { pid: Number(p), args: args! };
    });
}

/** How the script ended, or that it is still running (bash holds a trap while a foreground command runs). */
function endOf(run: Script, boundMs = 20_000) {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<string>(
    (resolve) => (timer = setTimeout(() => resolve(`still running ${boundMs / 1000} s after SIGTERM`), boundMs)),
  );
  return Promise.race([run.ended, bound]).finally(() => clearTimeout(timer));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function releasedOrGone(id: string) {
  const [hub, namespace, name] = id.split('/') as [string, string, string];
  await h.store.waitFor<ClusterClaim, true>(
    'ClusterClaim',
    { hub, namespace, name },
    (c) => (!c || c.metadata.deletionTimestamp ? true : undefined),
    { timeoutMs: 15_000 },
  );
}

beforeAll(async () => {
  // Installs take 40 minutes of the test clock; everything else takes no time.
  const zero = {
    imageSet: 0,
    provisionInitializing: 0,
    syncSetApply: 0,
    startingMachines: 0,
    machinesStarting: 0,
    nodesStarting: 0,
    clusterOperatorSettle: 0,
    clusterOperators: 0,
  };
  h = await startClaimsHarness({ speed: 1, durations: { ...zero, provisionRunning: 40 * MINUTE } });
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
  const create = async (name: string, over: Record<string, unknown>) =>
    expect(
      (await h.app.inject({ method: 'POST', url: '/v1/pools', payload: poolRequest('hub-1', name, over) })).statusCode,
    ).toBe(201);
  await create('warm', { size: 1, runningCount: 1, labels: { tier: 'signals-warm' } });
  const building = await h.clusterWhere('hub-1', 'warm', installing);
  await h.jump('hub-1', building.metadata.name, 40 * MINUTE, running);
  await h.store.waitFor<ClusterPool, true>(
    'ClusterPool',
    { hub: 'hub-1', namespace: 'ci', name: 'warm' },
    (p) => (p?.status?.ready === 1 ? true : undefined),
    { timeoutMs: 10_000 },
  );
  // Created after the clock jump, so its install never ends here.
  await create('empty', { size: 0, runningCount: 0, labels: { tier: 'signals-wait' } });
}, 90_000);

afterAll(async () => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await h?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('README CI "Shell" example, cancelled with SIGTERM', () => {
  it('while `claim --wait` waits: the CLI gets the signal, releases the pending claim and exits; the script exits 143', async () => {
    const run = bash(shellScript('tier=signals-wait', 'echo TESTS-RAN'));
    leftovers.add(run.child.pid!);
    await run.printed(/^Pending: /m);
    const id = /claimed (\S+) from/.exec(run.stderr)![1]!;
    const cli = childrenOf(run.child.pid!).filter((p) => p.args.includes('bin/beekeeper.js claim'));
    expect(cli).toHaveLength(1);
    leftovers.add(cli[0]!.pid);

    run.child.kill('SIGTERM');
    expect(await endOf(run), run.stderr).toEqual({ code: 143, signal: null });
    expect(run.stderr).toContain(`released ${id}: interrupted (SIGTERM)`);
    expect(run.stdout).not.toContain('TESTS-RAN');
    await releasedOrGone(id);
    expect(alive(cli[0]!.pid), 'the claim --wait process outlived the script').toBe(false);
  }, 60_000);

  it('while the tests run: the tests get the signal, the heartbeat stops and the claim is released; the script exits 143', async () => {
    const run = bash(shellScript('tier=signals-warm', 'sleep 600'));
    leftovers.add(run.child.pid!);
    await run.printed(/^testing on https:\/\/api\./m);
    const id = /claimed (\S+) from/.exec(run.stderr)![1]!;
    const children = childrenOf(run.child.pid!);
    const heartbeat = children.find((p) => p.args.includes(`heartbeat ${id}`));
    const tests = children.find((p) => p.args === 'sleep 600');
    expect(heartbeat, JSON.stringify(children)).toBeDefined();
    expect(tests, JSON.stringify(children)).toBeDefined();
    for (const p of [heartbeat!, tests!]) leftovers.add(p.pid);

    run.child.kill('SIGTERM');
    expect(await endOf(run), run.stderr).toEqual({ code: 143, signal: null });
    expect(run.stderr).toContain(`released ${id}`);
    await releasedOrGone(id);
    expect(alive(heartbeat!.pid), 'the heartbeat outlived the script').toBe(false);
    expect(alive(tests!.pid), 'the tests outlived the script').toBe(false);
  }, 60_000);
});
