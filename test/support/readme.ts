// The README's shell blocks as a reader runs them: find a block under a heading, let bash split its curl commands
// into arguments (quotes, continuations and all), and send each with fetch. Shared by the tests that run the
// README against a live Beekeeper (test/readme, test/deploy/compose).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CurlAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  /** `METHOD /path?query`, relative to the base URL, for messages. */
  command: string;
}

/** The first fenced block of `lang` after the README heading `heading` (e.g. `### Shell`), as written. */
export function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading ${heading}`);
  const fence = '```' + lang + '\n';
  const start = readme.indexOf(fence, at) + fence.length;
  return readme.slice(start, readme.indexOf('\n```', start));
}

/** Runs a shell script with bash in its own process, as a reader or a CI runner would. */
export function bash(
  script: string,
  opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const timeoutMs = opts.timeoutMs ?? 90_000;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the README script did not end within ${timeoutMs} ms\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The curl commands of a README shell block with $B and $BEEKEEPER_TOKEN set, as bash itself splits them into
 * arguments: bash runs the block with `curl` defined as a function that prints its arguments (and the other
 * commands a block may hold, `open` and `kubectl`, as functions that do nothing).
 */
export async function curlCommands(
  block: string,
  at: { base: string; token: string; cwd: string },
): Promise<string[][]> {
  // fd 3 is the script's stdout, so that a command written `curl ... > file` is seen too (and leaves an empty
  // file in `cwd`).
  const script =
    `exec 3>&1\ncurl() { printf '%s\\0' "$@" >&3; printf '\\1\\0' >&3; }\nopen() { :; }\nkubectl() { :; }\n` +
    `B=${at.base}\nBEEKEEPER_TOKEN=${at.token}\n${block}\n`;
  const run = await bash(script, { cwd: at.cwd });
  if (run.code !== 0) throw new Error(`bash could not run the README block: ${run.stderr}`);
  const commands: string[][] = [[]];
  for (const arg of run.stdout.split('\0').slice(0, -1)) {
    if (arg === '\u0001') commands.push([]);
    else commands.at(-1)!.push(arg);
  }
  return commands.filter((c) => c.length > 0);
}

/** One curl command line (`-s -X METHOD URL -H 'k: v' -d 'body'`) sent with fetch; `base` shortens the label. */
export async function runCurl(args: string[], base: string): Promise<CurlAnswer> {
  let method: string | undefined;
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-X') method = args[++i];
    else if (a === '-H') {
      const [k, ...v] = args[++i]!.split(':');
      headers[k!.trim()] = v.join(':').trim();
    } else if (a === '-d') body = args[++i];
    else if (a.startsWith('http')) url = a;
    else if (!/^-s?N?$/.test(a)) throw new Error(`the README test does not know curl's ${a}`);
  }
  method ??= body === undefined ? 'GET' : 'POST';
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, command: `${method} ${url.slice(base.length)}` };
}

/** Moves each YYYY-MM-DD in an example forward by whole years until it lies at least two days ahead. */
export function datesAhead(text: string): string {
  return text.replace(/\b(20\d\d)-(\d\d)-(\d\d)(?!\d)/g, (_, y: string, m: string, d: string) => {
    let year = Number(y);
    while (Date.UTC(year, Number(m) - 1, Number(d)) < Date.now() + 2 * 86_400_000) year++;
    return `${year}-${m}-${d}`;
  });
}
