#!/usr/bin/env node
// The `beekeeper` command. A built package runs dist/; a checkout runs the TypeScript source through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/main/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  // tsx is a dev dependency: a checkout installed with `npm ci --omit=dev` and never built has neither, and would
  // otherwise die with a stack trace about a missing package instead of saying what to run.
  const tsx = await import('tsx/esm/api').catch((err) => {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    console.error(
      'beekeeper: this checkout is not built and has no dev dependencies: run `npm ci && npm run build` in it,\n' +
        'or install the standalone CLI package (docs/cli.md).',
    );
    process.exit(2);
  });
  tsx.register();
  await import(new URL('../src/main/cli.ts', import.meta.url).href);
}
