import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { ROOT, TSC, TSC_ARGS } from './support/early-typecheck.js';

/** tsc's output and whether it passed: from the run started by the global setup, or from a run of our own. */
async function typecheck(): Promise<{ ok: boolean; output: string }> {
  const dir = inject('typecheckDir');
  if (dir) {
    const result = join(dir, 'result.json');
    while (!existsSync(result)) await new Promise((r) => setTimeout(r, 250));
    const { code, output } = JSON.parse(readFileSync(result, 'utf8')) as { code: number | null; output: string };
    return { ok: code === 0, output };
  }
  return promisify(execFile)(process.execPath, [TSC, ...TSC_ARGS], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
    .then(() => ({ ok: true, output: '' }))
    .catch((e: { stdout?: string }) => ({ ok: false, output: e.stdout ?? String(e) }));
}

// vitest strips types without checking them; CI runs only `npm test`, so the compiler runs here (started early,
// beside the other test files, by test/support/early-typecheck.ts).
describe('the project', () => {
  it('type-checks (tsc --noEmit over src, test, bench, scripts and openapi)', async () => {
    const result = await typecheck();
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 180_000);
});
