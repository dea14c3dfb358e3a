// One schema (config/schema.ts) for the environment and the optional YAML file (BEEKEEPER_CONFIG): each setting's
// variable, file key, limits and default. Every value is validated at start and every problem is listed at once;
// the result is a frozen, typed Config. Precedence: environment, then file, then defaults. Only entry files pass
// `process.env` in.
import { createIssues, readEnum, readInt, readString, readNumber, type Source } from './config/fields.js';
import { readConfigFile } from './config/file.js';
import { HUB_NAME, readHubs, type HubConfig, type HubDefaults } from './config/hubs.js';
import { INTERVAL_RULE, intervalCron } from './config/interval-cron.js';
import { readRedis, type RedisConfig } from './config/redis.js';
import { readTokens, type ApiToken } from './config/tokens.js';
import { limits, LOG_LEVELS, SETTINGS, setting, SIM_SEEDS } from './config/schema.js';

export type { HubConfig, HubDefaults } from './config/hubs.js';
export { DEFAULT_REDIS_PREFIX, type HostPort, type RedisConfig } from './config/redis.js';
export type { ApiToken } from './config/tokens.js';

export type LogLevel = (typeof LOG_LEVELS)[number];
export type SimSeed = (typeof SIM_SEEDS)[number];

export interface JobsConfig {
  /** How long a worker's lock on a job lasts without renewal; a crashed worker's jobs are recovered after it. */
  lockDurationMs: number;
  stalledIntervalMs: number;
  keepCompletedSeconds: number;
  keepCompletedCount: number;
  keepFailedSeconds: number;
  keepFailedCount: number;
  /** On shutdown, how long active jobs may run on before they are handed back to the queue. */
  shutdownGraceMs: number;
}

export interface Config {
  /** Empty means: run the embedded simulator with one hub named `local`. */
  hubs: readonly HubConfig[];
  /** Concurrency and rate limits of hubs that do not set their own (and of the embedded hub). */
  hubDefaults: HubDefaults;
  redis: RedisConfig;
  http: { host: string; port: number };
  /** No tokens: the API is open (a warning is logged at start). */
  auth: { tokens: readonly ApiToken[] };
  logLevel: LogLevel;
  /** The embedded simulator; `kubeconfig` is where `npm start` writes the kubeconfig of its hub (for kubectl). */
  sim: { speed: number; seed: SimSeed; kubeconfig: string };
  /** Namespace on the state hub holding Beekeeper's own resources. */
  stateNamespace: string;
  /** Hub holding Beekeeper's own resources: the first hub (or `local` in embedded mode) unless set. */
  stateHub: string;
  jobs: JobsConfig;
  /** The scheduler role's periodic resync (src/schedules/resync.ts). */
  resync: { intervalSeconds: number };
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Every environment variable Beekeeper reads, for docs and `--help`. */
export const CONFIG_ENV_VARS = [
  'BEEKEEPER_CONFIG',
  ...[...SETTINGS.values()].flatMap((s) => (s.schema.env ? [s.schema.env] : [])),
];

export function loadConfig(env: Record<string, string | undefined>): Config {
  const issues = createIssues();
  const file = readConfigFile(env.BEEKEEPER_CONFIG, issues);
  const pick = (path: string): Source | undefined => {
    const name = setting(path).schema.env;
    const v = name ? env[name] : undefined;
    if (v !== undefined && v !== '') return { value: v, from: name! };
    return file.at(path);
  };
  // Numbers and enums with the schema's limits, enum and default.
  const int = (path: string) => readInt(pick(path), issues, limits(path));
  const num = (path: string) => readNumber(pick(path), issues, limits(path));
  const oneOf = <T extends string>(path: string, allowed: readonly T[]) =>
    readEnum(pick(path), issues, allowed, setting(path).schema.default as T);

  const perHub = {
    concurrency: int('concurrency.perHub'),
    globalConcurrency: int('concurrency.global'),
    backgroundConcurrency: int('concurrency.background'),
    backgroundGlobalConcurrency: int('concurrency.backgroundGlobal'),
    qps: num('rateLimits.qps'),
    burst: int('rateLimits.burst'),
  };
  const hubs = readHubs(pick('hubs'), perHub, issues);
  const redis = readRedis(pick, issues);

  const stateHubSrc = pick('stateHub');
  const stateHub = readString(stateHubSrc, issues, {
    fallback: hubs[0]?.name ?? 'local',
    pattern: HUB_NAME,
    rule: 'a hub name',
  });
  if (stateHubSrc && hubs.length > 0 && !hubs.some((h) => h.name === stateHub)) {
    issues.add(
      stateHubSrc.from,
      `${JSON.stringify(stateHub)} is not one of the configured hubs (${hubs.map((h) => h.name).join(', ')})`,
    );
  }

  const config: Config = {
    hubs,
    hubDefaults: perHub,
    redis,
    http: {
      // The embedded demo is open (no tokens by default), so it only listens on loopback unless told otherwise.
      host: readString(pick('http.host'), issues, { fallback: hubs.length === 0 ? '127.0.0.1' : '0.0.0.0' }),
      port: int('http.port'),
    },
    auth: { tokens: readTokens(pick('auth.tokens'), issues) },
    logLevel: oneOf('logLevel', LOG_LEVELS),
    sim: {
      speed: num('sim.speed'),
      seed: oneOf('sim.seed', SIM_SEEDS),
      kubeconfig: readString(pick('sim.kubeconfig'), issues, {
        fallback: setting('sim.kubeconfig').schema.default as string,
      }),
    },
    stateNamespace: readString(pick('stateNamespace'), issues, {
      fallback: setting('stateNamespace').schema.default as string,
      pattern: HUB_NAME,
      rule: 'a namespace name',
    }),
    stateHub,
    jobs: {
      lockDurationMs: int('jobs.lockDurationMs'),
      stalledIntervalMs: int('jobs.stalledIntervalMs'),
      keepCompletedSeconds: int('jobs.keepCompletedSeconds'),
      keepCompletedCount: int('jobs.keepCompletedCount'),
      keepFailedSeconds: int('jobs.keepFailedSeconds'),
      keepFailedCount: int('jobs.keepFailedCount'),
      shutdownGraceMs: int('jobs.shutdownGraceMs'),
    },
    resync: { intervalSeconds: readResyncInterval(pick('resync.intervalSeconds'), issues) },
  };

  if (issues.list().length > 0) throw new ConfigError(issues.list());
  return deepFreeze(config);
}

/** The config of embedded mode: the simulator's one hub, reached through the kubeconfig it hands out. */
export function withEmbeddedHub(config: Config, hub: { name: string; kubeconfigData: string }): Config {
  return deepFreeze({
    ...config,
    hubs: [{ name: hub.name, kubeconfigData: hub.kubeconfigData, inCluster: false, ...config.hubDefaults }],
    stateHub: hub.name,
  });
}

function readResyncInterval(src: Source | undefined, issues: ReturnType<typeof createIssues>): number {
  const { fallback } = limits('resync.intervalSeconds');
  const seconds = readInt(src, issues, limits('resync.intervalSeconds'));
  if (src && !intervalCron(seconds)) {
    issues.add(src.from, `${seconds} must be ${INTERVAL_RULE}`);
    return fallback;
  }
  return seconds;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
