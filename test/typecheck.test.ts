import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

// vitest strips types without checking them; CI runs only `npm test`, so the compiler runs here.
describe('the project', () => {
  it('type-checks (tsc --noEmit over src, test and bench)', async () => {
    const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    })
      .then(() => ({ ok: true, output: '' }))
      .catch((e: { stdout?: string }) => ({ ok: false, output: e.stdout ?? String(e) }));
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 180_000);
});
