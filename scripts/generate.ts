// `npm run generate`: write every generated file (Beekeeper's CRDs, the RBAC manifests and their table in docs/hub-access.md, then openapi/openapi.json
// through `npm run openapi`); test/platform/generated-crds.test.ts and test/deploy/generated-rbac.test.ts fail when a
// committed one drifts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFiles } from './crd-files.js';
import { rbacFiles, withPermissionTable } from './rbac-files.js';

const root = new URL('../', import.meta.url);
for (const file of [...crdFiles(), ...rbacFiles()]) {
  mkdirSync(new URL('.', new URL(file.path, root)), { recursive: true });
  writeFileSync(new URL(file.path, root), file.text);
  process.stdout.write(`wrote ${file.path}\n`);
}
const doc = new URL('docs/hub-access.md', root);
writeFileSync(doc, withPermissionTable(readFileSync(doc, 'utf8')));
process.stdout.write('wrote the permission table in docs/hub-access.md\n');
execFileSync('npm', ['run', '--silent', 'openapi'], { cwd: root, stdio: 'inherit' });
