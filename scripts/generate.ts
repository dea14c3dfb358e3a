// `npm run generate`: write every generated file (Beekeeper's CRDs, then openapi/openapi.json through `npm run
// openapi`); test/platform/generated-files.test.ts fails when a committed one drifts.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { crdFiles } from './crd-files.js';

const root = new URL('../', import.meta.url);
for (const file of crdFiles()) {
  writeFileSync(new URL(file.path, root), file.text);
  process.stdout.write(`wrote ${file.path}\n`);
}
execFileSync('npm', ['run', '--silent', 'openapi'], { cwd: root, stdio: 'inherit' });
