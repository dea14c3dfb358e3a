// The README tour's process: `npm start` (the compiled all-in-one entry) with a newcomer's empty configuration, on
// a key prefix of this run, and the ways the tour talks to it (curl, the CLI, bash in a scratch directory). The
// tests import the process's state as live bindings: B and TOKEN are set once startEmbedded has read them.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { dropKeys } from '../../src/system/embedded-prefix.js';
import { bash as runBash } from '../support/readme.js';
import { compiledMain } from '../support/compiled-src.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const hasKubectl = await new Promise<boolean>((resolve) =>
  execFile('kubectl', ['version', '--client'], (err) => resolve(!err)),
);
if (!hasKubectl) console.warn("test/readme: no kubectl on PATH, so the README's kubectl step is SKIPPED");
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const RUN = randomUUID().slice(0, 8);
export const PREFIX = `{bk-readme-${RUN}}`;
// The README's names, made unique per run.
export const NAME = `dev-alice-${RUN}`;
export const IDEMPOTENCY_KEY = `dev-alice-1-${RUN}`;

export let server: ChildProcess;
export let output = '';
export let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
export let B = '';
/** The admin token `npm start` printed (`export BEEKEEPER_TOKEN=...`), which every README example sends. */
export let TOKEN = '';
export const tmp = mkdtempSync(join(tmpdir(), 'bk-readme-'));

/** What the process printed lately, so a failed expectation says what the server was doing. */
export const tail = () => output.split('\n').slice(-25).join('\n');

export function waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = output.match(pattern);
      if (!m) return false;
      done();
      resolve(m);
      return true;
    };
    const onData = () => void check();
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`npm start exited (${code}) before printing ${pattern}:\n${tail()}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`npm start did not print ${pattern} within ${timeoutMs} ms:\n${tail()}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      server.stdout?.off('data', onData);
      server.off('exit', onExit);
    };
    server.stdout?.on('data', onData);
    server.once('exit', onExit);
    check();
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** `curl -s` as the README writes it: method, path relative to $B, optional JSON body and headers. */
export async function curl(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const signed = { authorization: `Bearer ${TOKEN}`, ...headers };
  const res = await fetch(`${B}${path}`, {
    method,
    redirect: 'manual',
    headers: body === undefined ? signed : { 'content-type': 'application/json', ...signed },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** `node bin/beekeeper.js …` in a separate process, as the README's CI section runs it. */
export function cli(
  args: string[],
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/beekeeper.js'), ...args], {
      cwd: tmp,
      env: { ...process.env, BEEKEEPER_URL: B, BEEKEEPER_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`beekeeper ${args.join(' ')} did not end within ${timeoutMs} ms\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a README shell script with bash in its own process, as a CI runner would. */
export const bash = (script: string, env: Record<string, string>) => runBash(script, { env, cwd: tmp });

/** Ask again until the answer satisfies `ok` (each ask is a real HTTP answer; the pause only spaces them). */
export async function until(path: string, ok: (a: Answer) => boolean, timeoutMs: number): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  let last = await curl('GET', path);
  while (!ok(last)) {
    if (Date.now() > deadline)
      throw new Error(`GET ${path} never satisfied the test; last answer ${last.status}: ${last.text.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await curl('GET', path);
  }
  return last;
}

/** Starts `npm start`'s process (compiled all-in-one) as a newcomer would, and reads what it prints. */
export async function startEmbedded(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    REDIS_URL,
    BEEKEEPER_SIM_SPEED: '300',
    BEEKEEPER_REDIS_PREFIX: PREFIX,
  };
  // A newcomer has no configuration: nothing may point this process at other hubs or require tokens.
  for (const name of [
    'BEEKEEPER_CONFIG',
    'BEEKEEPER_HUBS',
    'BEEKEEPER_API_TOKENS',
    'BEEKEEPER_HTTP_HOST',
    'LOG_LEVEL',
    'BEEKEEPER_SIM_SEED',
  ])
    delete env[name];
  server = spawn(process.execPath, compiledMain('all-in-one'), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.setEncoding('utf8');
  server.stderr!.setEncoding('utf8');
  server.stdout!.on('data', (d: string) => (output += d));
  server.stderr!.on('data', (d: string) => (output += d));
  exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  // `npm start` prints the API URL; everything below uses what it printed, as a newcomer would.
  const [, base] = await waitForOutput(/API:\s+(http:\/\/\S+?)\/v1\b/, 45_000);
  B = base!;
  const [, token] = await waitForOutput(/^export BEEKEEPER_TOKEN=(\S+)$/m, 5_000);
  TOKEN = token!;
}

/** Stops the process (SIGKILL if SIGTERM is not enough) and leaves nothing behind on disk or in Redis. */
export async function stopEmbedded(): Promise<void> {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 10_000))]);
    if (!gone) {
      server.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(tmp, { recursive: true, force: true });
  // Leave nothing behind in the shared Redis.
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await dropKeys(redis, PREFIX);
  } finally {
    redis.disconnect();
  }
}
