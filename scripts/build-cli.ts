// `npm run build:cli`: the `beekeeper` CLI as one file, packages/cli/dist/beekeeper.js, for the standalone
// @beekeeper/cli package (packages/cli/README.md), so a CI image installs the CLI without the service. The CLI uses
// only Node's built-ins; the build fails when an import would pull a package (or the service code behind one) into
// the bundle, because the package declares no dependencies. Not minified: a user's stack trace stays readable and
// the file is small anyway.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const packageDir = new URL('packages/cli/', root);
const outfile = new URL('dist/beekeeper.js', packageDir);

// The CLI ships at the service's version: the package.json of the package follows the root's.
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const manifestPath = new URL('package.json', packageDir);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
if (manifest.version !== version) {
  manifest.version = version;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`packages/cli/package.json: version ${version}, as the root package\n`);
}

const result = await build({
  absWorkingDir: root.pathname,
  entryPoints: ['src/main/cli.ts'],
  outfile: outfile.pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  banner: { js: `#!/usr/bin/env node\n// @beekeeper/cli ${version}: built from src/cli by \`npm run build:cli\`.` },
  metafile: true,
  logLevel: 'warning',
});

const packages = Object.keys(result.metafile.inputs).filter((path) => path.includes('node_modules/'));
if (packages.length) {
  process.stderr.write(
    `build:cli: the CLI bundle would carry packages, but @beekeeper/cli has no dependencies:\n  ${packages.join('\n  ')}\n` +
      'cut the import edge that reaches them (the CLI imports only src/cli, src/config/names.ts and node: built-ins)\n',
  );
  process.exit(1);
}
chmodSync(outfile, 0o755);
process.stdout.write(`wrote packages/cli/dist/beekeeper.js (${(statSync(outfile).size / 1024).toFixed(1)} KiB)\n`);
