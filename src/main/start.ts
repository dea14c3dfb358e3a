// What every entry file does: read the environment, build the system for its roles, listen (api), and shut
// down gracefully on SIGTERM/SIGINT. The only place (with the entry files) that touches process.env, ports,
// signals and exit codes.
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { RedisMissing } from '../redis/bootstrap.js';
import { createSystem, type Role, type System } from '../system.js';

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
    system = await createSystem({ config, log, clock: systemClock, roles: opts.roles, allowPrivateRedis: opts.allInOne ?? false });
  } catch (err) {
    if (err instanceof RedisMissing) process.stderr.write(`${err.message}\n`);
    else log.fatal({ err }, 'start-up failed');
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down: no new requests, finishing or handing back active jobs');
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
        'Stop with Ctrl-C.\n\n',
    );
  }
}
