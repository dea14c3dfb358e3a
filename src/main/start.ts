// What every entry file does: read the environment, build the system for its roles, listen (api), and shut
// down gracefully on SIGTERM/SIGINT. The only place (with the entry files) that touches process.env, ports,
// signals and exit codes.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { sha256Hex, signInConfigured } from '../config/auth.js';
import { createLogger } from '../logger.js';
import { RedisMissing } from '../redis/bootstrap.js';
import { createSystem, type Role, type System } from '../system.js';
import { removeKubeconfigFile, writeKubeconfigFile } from '../system/kubeconfig-file.js';
import { readVersionInfo } from '../version.js';
import { exitOnceWritten } from './exit-once-written.js';
import { clockFromEnv } from './test-clock.js';

export interface StartOptions {
  roles: readonly Role[];
  /** all-in-one: may start a private redis-server, and prints where to go. */
  allInOne?: boolean;
}

export async function start(opts: StartOptions): Promise<void> {
  let config: Config;
  let clock: ReturnType<typeof clockFromEnv>;
  try {
    config = loadConfig(process.env);
    clock = clockFromEnv(process.env);
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
  // Secure by default: an API with no way to sign in is either given a fresh admin token (embedded `npm start`,
  // printed once as `export BEEKEEPER_TOKEN=...`) or refused (a deployed api role), unless open access is asked for.
  let adminToken: string | undefined;
  if (opts.roles.includes('api') && !config.auth.open && !signInConfigured(config.auth)) {
    if (!opts.allInOne) {
      process.stderr.write(NO_SIGN_IN);
      process.exit(2);
    }
    adminToken = randomBytes(32).toString('base64url');
    config = withTokens(config, [{ name: EMBEDDED_ADMIN, tokenSha256: sha256Hex(adminToken) }]);
  }
  const log = createLogger({ level: config.logLevel });
  // Every role's first line says which build it is, so a log read after a rollout (or a crash at start-up) can tell.
  const version = readVersionInfo({ commit: process.env.BEEKEEPER_COMMIT });
  const built = { version: version.version, commit: version.commit, node: version.node };
  log.info({ roles: opts.roles, ...built, apiGroupVersion: version.apiGroupVersion }, 'Beekeeper starting');
  if (clock.offsetMs !== 0) log.warn({ offsetMs: clock.offsetMs }, 'test clock: this role runs off real time');

  let system: System;
  try {
    system = await createSystem({
      config,
      log,
      clock: clock.clock,
      roles: opts.roles,
      allowPrivateRedis: opts.allInOne ?? false,
      version,
    });
  } catch (err) {
    if (err instanceof RedisMissing) process.stderr.write(`${err.message}\n`);
    else log.fatal({ err }, 'start-up failed');
    return exitOnceWritten(1);
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
    await exitOnceWritten(0);
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
    return exitOnceWritten(1);
  }
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const base = `http://${shown}:${(system.app.server.address() as { port: number }).port}`;
  if (opts.roles.includes('api')) log.info({ url: `${base}/v1`, docs: `${base}/docs`, ...built }, 'API listening');
  else log.info({ url: `${base}/metrics`, ...built }, 'probes and metrics listening');
  if (opts.allInOne) {
    const bearer = adminToken ? ' -H "Authorization: Bearer $BEEKEEPER_TOKEN"' : '';
    process.stdout.write(
      `\nBeekeeper is running (${system.config.hubs.map((h) => h.name).join(', ')}; Redis: ${system.redisOrigin}).\n` +
        (adminToken
          ? `  Sign in (a new admin token each start; the CLI reads it too):\nexport BEEKEEPER_TOKEN=${adminToken}\n`
          : '') +
        `  API:  ${base}/v1   (try: curl${bearer} ${base}/v1/clusters)\n` +
        `  Docs: ${base}/docs\n` +
        `  Jobs: ${base}/admin/queues${adminToken ? `   (user ${EMBEDDED_ADMIN}, password: the token)` : ''}\n` +
        (kubeconfig
          ? `  Hub:  kubeconfig of the embedded hub in ${kubeconfig.path}\n` +
            `        export KUBECONFIG=${shellQuoted(kubeconfig.path)}   (then: kubectl get cd -A)\n`
          : '') +
        'Stop with Ctrl-C.\n\n',
    );
  }
}

/** The name of the token `npm start` generates, in logs and audit (and the dashboard's user name). */
const EMBEDDED_ADMIN = 'admin';

const NO_SIGN_IN =
  'the api role has no way to sign callers in, and refuses to start open. Configure one or more of:\n' +
  '  - static tokens: BEEKEEPER_API_TOKENS=name=token,... or auth.tokens (token or tokenSha256; `beekeeper token new`)\n' +
  '  - a tokens file, re-read when it changes: BEEKEEPER_API_TOKENS_FILE=/path/tokens.yaml\n' +
  '  - a tokens Secret on a hub: BEEKEEPER_API_TOKENS_SECRET=hub/namespace/name (key tokens.yaml)\n' +
  '  - OIDC: BEEKEEPER_OIDC_ISSUER and BEEKEEPER_OIDC_AUDIENCE\n' +
  '  - Kubernetes TokenReview: BEEKEEPER_TOKENREVIEW_HUB=<hub>\n' +
  'or, to let anyone who reaches the API act as a platform admin, BEEKEEPER_AUTH_OPEN=true. See docs/sign-in.md.\n';

function withTokens(config: Config, tokens: Config['auth']['tokens']): Config {
  return { ...config, auth: { ...config.auth, tokens: [...config.auth.tokens, ...tokens] } };
}

/** A path as a shell word: as is when it is safe, else in single quotes. */
function shellQuoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
