// bin/beekeeper.js in a checkout that was neither built nor given its dev dependencies (`npm ci --omit=dev`, as the
// README's CI examples once said): no dist/, no tsx. It must say what to run, not die on a missing package.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = new URL('../../', import.meta.url).pathname;
const checkout = mkdtempSync(join(tmpdir(), 'beekeeper-unbuilt-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

it('an unbuilt checkout without dev dependencies exits 2 naming the commands that fix it', async () => {
  mkdirSync(join(checkout, 'bin'));
  copyFileSync(join(repo, 'bin/beekeeper.js'), join(checkout, 'bin/beekeeper.js'));
  const failed = await run(process.execPath, [join(checkout, 'bin/beekeeper.js'), 'version', '--client'], {
    cwd: checkout,
    env: { PATH: process.env.PATH },
  }).then(
    () => undefined,
    (err: { code: number; stderr: string }) => err,
  );
  expect(failed?.code).toBe(2);
  expect(failed?.stderr).toContain('run `npm ci && npm run build` in it');
  expect(failed?.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
});
