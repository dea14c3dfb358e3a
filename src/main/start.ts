// What every entry file does: read the environment, build the system for its roles, listen (api), and shut
// down gracefully on SIGTERM/SIGINT. The only place (with the entry files) that touches process.env, ports,
// signals and exit codes.
import { resolve } from 'node:path';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { RedisMissing } from '../redis/bootstrap.js';
import { createSystem, type Role, type System } from '../system.js';
import { removeKubeconfigFile, writeKubeconfigFile } from '../system/kubeconfig-file.js';

export interface StartOptions {
  roles: readonly Role[];
  /** all-in-one: may start a private redis-server, and prints where to go. */
  allInOne?: boolean;
}

export async function start(opts: StartOptions): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (!opts.allInOne && config.hubs.length === 0) {
    // Each process would start its own simulator and they would not see each other's clusters.
    process.stderr.write(
      `the ${opts.roles.join('/')} role needs hubs: set BEEKEEPER_HUBS (e.g. local=/path/to/kubeconfig) or BEEKEEPER_CONFIG. ` +
        'For the embedded demo run `npm start`; to share one simulator between processes run `npm run sim -- --kubeconfig-out sim.kubeconfig`.\n',
    );
    process.exit(2);
  }
  const log = createLogger({ level: config.logLevel });

  let system: System;
  try {
    system = await createSystem({
      config,
      log,
      clock: systemClock,
      roles: opts.roles,
      allowPrivateRedis: opts.allInOne ?? false,
    });
  } catch (err) {
    if (err instanceof RedisMissing) process.stderr.write(`${err.message}\n`);
    else log.fatal({ err }, 'start-up failed');
    process.exit(1);
  }

  // The embedded hub's kubeconfig, so that `kubectl get cd -A` works on the demo. A convenience: if it cannot be
  // written (a read-only working directory in a container, say), Beekeeper runs on without it.
  let kubeconfig: { path: string; yaml: string } | undefined;
  if (opts.allInOne && system.simulator) {
    const path = resolve(system.config.sim.kubeconfig);
    const yaml = system.simulator.kubeconfigYaml();
    try {
      writeKubeconfigFile(path, yaml);
      kubeconfig = { path, yaml };
    } catch (err) {
      log.warn(
        { err, path },
        'cannot write the kubeconfig of the embedded hub: set BEEKEEPER_SIM_KUBECONFIG to a writable path',
      );
    }
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down: no new requests, finishing or handing back active jobs');
    // Its token and port die with this process.
    if (kubeconfig) removeKubeconfigFile(kubeconfig.path, kubeconfig.yaml);
    await system.close();
    log.info({}, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const { host, port } = system.config.http;
  try {
    await system.app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    log.fatal({ err }, code === 'EADDRINUSE' ? `port ${port} is in use: set PORT to another one` : 'cannot listen');
    if (kubeconfig) removeKubeconfigFile(kubeconfig.path, kubeconfig.yaml);
    await system.close();
    process.exit(1);
  }
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const base = `http://${shown}:${(system.app.server.address() as { port: number }).port}`;
  if (opts.roles.includes('api')) log.info({ url: `${base}/v1`, docs: `${base}/docs` }, 'API listening');
  else log.info({ url: `${base}/metrics` }, 'probes and metrics listening');
  if (opts.allInOne) {
    process.stdout.write(
      `\nBeekeeper is running (${system.config.hubs.map((h) => h.name).join(', ')}; Redis: ${system.redisOrigin}).\n` +
        `  API:  ${base}/v1   (try: curl ${base}/v1/clusters)\n` +
        `  Docs: ${base}/docs\n` +
        `  Jobs: ${base}/admin/queues\n` +
        (kubeconfig
          ? `  Hub:  kubeconfig of the embedded hub in ${kubeconfig.path}\n` +
            `        export KUBECONFIG=${shellQuoted(kubeconfig.path)}   (then: kubectl get cd -A)\n`
          : '') +
        'Stop with Ctrl-C.\n\n',
    );
  }
}

/** A path as a shell word: as is when it is safe, else in single quotes. */
function shellQuoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
