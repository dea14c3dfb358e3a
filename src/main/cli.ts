// Entry of the `beekeeper` CLI: the only place that reads process.env, traps signals and exits.
import { writeFile } from 'node:fs/promises';
import { runCli } from '../cli/run.js';
import { readVersionInfo } from '../version.js';

// SIGTERM (a CI runner cancelling the job, a script forwarding its own) and SIGHUP (the terminal went away) end a
// command as Ctrl-C does: `claim --wait` releases its pending claim before exiting. A second signal kills at once.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => controller.abort(signal));

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  // A kubeconfig is a credential: readable by its owner only.
  writeSecretFile: (path, text) => writeFile(path, text, { mode: 0o600 }),
  signal: controller.signal,
  version: readVersionInfo().version,
});
process.exitCode = code;
