// Entry of the `beekeeper` CLI: the only place that reads process.env, traps signals and exits.
import { writeFile } from 'node:fs/promises';
import { runCli } from '../cli/run.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  // A kubeconfig is a credential: readable by its owner only.
  writeSecretFile: (path, text) => writeFile(path, text, { mode: 0o600 }),
  signal: controller.signal,
});
process.exitCode = code;
