// Processes the tests start (drill roles, the simulator) run from src/ compiled once per test run, not through tsx:
// under tsx each process loads tsx and looks up every module in its cache before it serves, which cost 4-8 s a
// process on a loaded 2-core machine against 2-4 s for the same start from JavaScript (the simulator to `ready`,
// measured side by side), and a drill run starts dozens of them. esbuild transpiles file by file as tsx does (no
// bundling, no type check: test/typecheck.test.ts checks types), into a temp dir shaped like the repository root
// (dist/ for src/, and links to package.json, deploy/ and node_modules/), so the few paths src/ resolves from its
// own location (`../package.json`, `../../deploy/crds/`, packages) resolve as they do from a `npm run build` dist/.
import { buildSync } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// One build per test process, even if vitest loads this module again for another file.
const KEY = Symbol.for('beekeeper.test.compiledSrc');
type Holder = { [KEY]?: string };

function compile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'beekeeper-compiled-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['package.json', 'deploy', 'node_modules']) symlinkSync(join(ROOT, name), join(dir, name));
  const entryPoints = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(ROOT, 'src', f));
  buildSync({
    entryPoints,
    outdir: join(dir, 'dist'),
    outbase: join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  return dir;
}

/**
 * The arguments for `node` that run `src/main/<entry>.ts` (e.g. `sim`, `worker`) from the compiled tree, built on
 * the first call.
 */
export function compiledMain(entry: string): string[] {
  const holder = globalThis as Holder;
  holder[KEY] ??= compile();
  return [join(holder[KEY], 'dist', 'main', `${entry}.js`)];
}
