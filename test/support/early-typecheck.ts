// A global setup: when the run includes test/typecheck.test.ts (a whole-suite run such as `npm test`), `tsc --noEmit`
// starts at once beside the tests, at a lower CPU priority, instead of taking its ~35 s in turn: the test files
// mostly wait on their simulators and processes, and leave CPU to spare. test/typecheck.test.ts waits for its result; it runs
// tsc itself when nothing was started here (a run of other files, or a filter this cannot read).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the early tsc writes `result.json` ({ code, output }) when it ends, or null when none was started. */
    typecheckDir: string | null;
  }
}

export const TSC_ARGS = ['-p', 'tsconfig.json', '--noEmit'];
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let child: ChildProcess | undefined;
let dir: string | undefined;

/** `vitest run` with no file filter, or with one that names the typecheck test. */
function runIncludesTypecheck(argv: string[]): boolean {
  const at = argv.findIndex((a) => a === 'run' || a === 'related' || a === 'watch');
  const filters = (at >= 0 ? argv.slice(at + 1) : argv.slice(2)).filter((a) => !a.startsWith('-'));
  return filters.length === 0 || filters.some((f) => 'test/typecheck.test.ts'.includes(f.replace(/^\.\//, '')));
}

export function setup(project: TestProject): void {
  if (!runIncludesTypecheck(process.argv)) {
    project.provide('typecheckDir', null);
    return;
  }
  dir = mkdtempSync(join(tmpdir(), 'beekeeper-typecheck-'));
  const out = dir;
  const proc = spawn(process.execPath, [TSC, ...TSC_ARGS], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  try {
    if (proc.pid) setPriority(proc.pid, 10);
  } catch {
    // Not allowed here: it runs at the same priority.
  }
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = (code: number | null, error?: string) => {
    // tsc prints its diagnostics on stdout; what else went wrong only shows when that is empty.
    const output = stdout || (code === 0 ? '' : `${stderr}${error ?? ''}` || `tsc ended with ${code}`);
    try {
      writeFileSync(join(out, 'result.tmp'), JSON.stringify({ code, output }));
      renameSync(join(out, 'result.tmp'), join(out, 'result.json'));
    } catch {
      // The run is over and teardown removed the directory.
    }
  };
  proc.once('error', (err) => done(null, String(err)));
  proc.once('close', (code) => done(code));
  project.provide('typecheckDir', out);
}

export function teardown(): void {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
}
