import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/log-then-exit.ts', import.meta.url));

/**
 * Runs the fixture with its standard output a pipe the test starts reading only half a second after the fixture
 * has logged everything (a slow log collector), or only once it has exited (`readAfterExit`).
 */
async function run(args: string[], readAfterExit = false) {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pause();
  // Made now: 'close' can follow 'exit' in the same turn, when the pipes were already closed.
  const closed = new Promise((r) => child.once('close', r));
  let out = '';
  const read = () => {
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdout.resume();
  };
  let alive = true;
  let aliveWhenRead: boolean | undefined;
  child.stderr.on('data', (d: Buffer) => {
    if (!readAfterExit && d.toString().includes('logged')) setTimeout(() => ((aliveWhenRead = alive), read()), 500);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('still running 20 s after it started'));
    }, 20_000);
    child.once('exit', (c) => ((alive = false), clearTimeout(guard), resolve(c)));
  });
  if (readAfterExit) read();
  await closed;
  // Whole lines only: where the process ended before its queue was out, the pipe may hold pieces of lines (seen
  // once on Node 24 under load: a line's tail with its head missing, in the middle of the output).
  const segments = out.split('\n').filter(Boolean);
  const parsed = segments.flatMap((l) => {
    try {
      return [JSON.parse(l) as { line: number; msg: string }];
    } catch {
      return [];
    }
  });
  const torn = segments.length - parsed.length;
  return { code, aliveWhenRead, torn, lines: parsed.map((l) => l.line), last: parsed.at(-1)?.msg };
}

describe('exitOnceWritten', () => {
  it('ends the process only once every line logged before is out, the last one included', async () => {
    const { code, aliveWhenRead, torn, lines, last } = await run(['once-written', '15000']);
    // It was still there, waiting, when its reader began to read half a second later.
    expect(aliveWhenRead).toBe(true);
    expect(code).toBe(3);
    expect(torn).toBe(0);
    expect(lines).toEqual(Array.from({ length: 2_001 }, (_, i) => i));
    expect(last).toBe('stopped');
  });

  it('is needed: a bare process.exit drops what the pipe had not taken', async () => {
    const { code, lines } = await run(['exit'], true);
    expect(code).toBe(3);
    // A pipe holds 64 KiB, a few hundred of these lines; the rest were queued in the process and went with it.
    expect(lines.length).toBeLessThan(2_001);
    expect(lines).not.toContain(2_000);
  });

  it('ends the process all the same when its reader does not read within the wait', async () => {
    // Read only after the exit: exitOnceWritten gave up after 300 ms and exited with its code.
    const { code, lines } = await run(['once-written', '300'], true);
    expect(code).toBe(3);
    expect(lines.length).toBeLessThan(2_001);
  });
});
