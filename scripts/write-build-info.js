// `npm run build` ends here: dist/build-info.json records the commit the build came from, so that /version and the
// start-up log can say it without running git at runtime. BEEKEEPER_COMMIT (an image build argument) wins; else
// the checkout's HEAD when git and .git are there; else nothing is recorded and /version says commit: null.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

function headCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: new URL('..', import.meta.url), stdio: 'pipe' })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

const commit = process.env.BEEKEEPER_COMMIT || headCommit();
const info = commit && /^[0-9a-f]{7,64}$/.test(commit) ? { commit } : {};
writeFileSync(new URL('../dist/build-info.json', import.meta.url), `${JSON.stringify(info)}\n`);
process.stdout.write(`wrote dist/build-info.json ${JSON.stringify(info)}\n`);
