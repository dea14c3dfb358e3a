#!/usr/bin/env node
// The `beekeeper` command. A built package runs dist/; a checkout runs the TypeScript source through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/main/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main/cli.ts', import.meta.url).href);
}
