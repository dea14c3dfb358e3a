// One schema (config/schema.ts) for the environment and the optional YAML file (BEEKEEPER_CONFIG): each setting's
// variable, file key, limits and default. Every value is validated at start and every problem is listed at once;
// the result is a frozen, typed Config. Precedence: environment, then file, then defaults. Only entry files pass
// `process.env` in.
import { createIssues, readEnum, readHostPorts, readInt, readString, readNumber, type Source } from './config/fields.js';
import { readConfigFile } from './config/file.js';
import { HUB_NAME, readHubs, type HubConfig, type HubDefaults } from './config/hubs.js';
import { INTERVAL_RULE, intervalCron } from './config/interval-cron.js';
import { limits, LOG_LEVELS, SETTINGS, setting, SIM_SEEDS } from './config/schema.js';

export type { HubConfig, HubDefaults } from './config/hubs.js';

export type LogLevel = (typeof LOG_LEVELS)[number];
export type SimSeed = (typeof SIM_SEEDS)[number];

export interface HostPort {
  host: string;
  port: number;
}

export interface RedisConfig {
  /** A single server (`redis://` or `rediss://`). Absent: 127.0.0.1:6379, and all-in-one may start a private one. */
  url?: string;
  /** `password` authenticates to the sentinels themselves (the data password is `password` below). */
  sentinel?: { sentinels: HostPort[]; name: string; password?: string };
  cluster?: { nodes: HostPort[] };
  /** For Sentinel or Cluster (a single server carries it in the URL). */
  password?: string;
  /** BullMQ prefix and key prefix. A `{hash tag}` keeps every key in one Redis Cluster slot, as BullMQ requires. */
  prefix: string;
}

export interface ApiToken {
  /** Who holds it; appears in logs and audit, the token never does. */
  name: string;
  token: string;
}

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
export const CONFIG_ENV_VARS = ['BEEKEEPER_CONFIG', ...[...SETTINGS.values()].flatMap((s) => (s.schema.env ? [s.schema.env] : []))];

const NO_COLON = /^[^\s:]+$/;

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
  const oneOf = <T extends string>(path: string, allowed: readonly T[]) => readEnum(pick(path), issues, allowed, setting(path).schema.default as T);

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
  const stateHub = readString(stateHubSrc, issues, { fallback: hubs[0]?.name ?? 'local', pattern: HUB_NAME, rule: 'a hub name' });
  if (stateHubSrc && hubs.length > 0 && !hubs.some((h) => h.name === stateHub)) {
    issues.add(stateHubSrc.from, `${JSON.stringify(stateHub)} is not one of the configured hubs (${hubs.map((h) => h.name).join(', ')})`);
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
      kubeconfig: readString(pick('sim.kubeconfig'), issues, { fallback: setting('sim.kubeconfig').schema.default as string }),
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

/** The Redis prefix when none is configured; embedded mode replaces it with one of its own (see system/embedded-prefix.ts). */
export const DEFAULT_REDIS_PREFIX = setting('redis.prefix').schema.default as string;

function readRedis(pick: (path: string) => Source | undefined, issues: ReturnType<typeof createIssues>): RedisConfig {
  const urlSrc = pick('redis.url');
  const url = urlSrc ? readString(urlSrc, issues, { fallback: '', pattern: /^rediss?:\/\/\S+$/, rule: 'a redis:// or rediss:// URL', secret: true }) : undefined;
  const sentinelsSrc = pick('redis.sentinel.sentinels');
  const sentinels = readHostPorts(sentinelsSrc, issues);
  const nameSrc = pick('redis.sentinel.name');
  const nodesSrc = pick('redis.cluster.nodes');
  const nodes = readHostPorts(nodesSrc, issues);
  const password = pick('redis.password') ? readString(pick('redis.password'), issues, { fallback: '', secret: true }) : undefined;
  const sentinelPassword = pick('redis.sentinel.password')
    ? readString(pick('redis.sentinel.password'), issues, { fallback: '', secret: true })
    : undefined;
  const prefixSrc = pick('redis.prefix');
  const prefix = readString(prefixSrc, issues, { fallback: DEFAULT_REDIS_PREFIX, pattern: NO_COLON, rule: 'free of spaces and ":" (BullMQ joins keys with ":")' });

  const modes = [urlSrc && 'REDIS_URL', sentinelsSrc && 'sentinel', nodesSrc && 'cluster'].filter(Boolean);
  if (modes.length > 1) issues.add('redis', `choose one of a URL, Sentinel or Cluster (got ${modes.join(' and ')})`);
  if (sentinelsSrc && !nameSrc) issues.add('BEEKEEPER_REDIS_SENTINEL_NAME', 'required with Sentinel (the master group name)');
  if (nameSrc && !sentinelsSrc) issues.add(nameSrc.from, 'set only together with the Sentinel addresses');
  if (nodesSrc && !/\{[^{}]+\}/.test(prefix)) {
    issues.add(prefixSrc?.from ?? 'BEEKEEPER_REDIS_PREFIX', 'must contain a {hash tag} with Redis Cluster, e.g. {beekeeper}');
  }
  return {
    ...(url ? { url } : {}),
    ...(sentinelsSrc && nameSrc
      ? { sentinel: { sentinels, name: readString(nameSrc, issues, { fallback: '' }), ...(sentinelPassword ? { password: sentinelPassword } : {}) } }
      : {}),
    ...(nodesSrc ? { cluster: { nodes } } : {}),
    ...(password ? { password } : {}),
    prefix,
  };
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

function readTokens(src: Source | undefined, issues: ReturnType<typeof createIssues>): ApiToken[] {
  if (src === undefined) return [];
  const entries: unknown[] =
    typeof src.value === 'string'
      ? src.value.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
          const eq = s.indexOf('=');
          return eq > 0 ? { name: s.slice(0, eq), token: s.slice(eq + 1) } : { name: s };
        })
      : Array.isArray(src.value) ? src.value : [src.value];
  const tokens: ApiToken[] = [];
  entries.forEach((e, i) => {
    const { name, token } = (e && typeof e === 'object' ? e : {}) as { name?: unknown; token?: unknown };
    if (typeof name !== 'string' || !/^[A-Za-z0-9._-]{1,63}$/.test(name)) {
      issues.add(src.from, `entry ${i + 1} needs a name (letters, digits, . _ -), written name=token`);
    } else if (typeof token !== 'string' || token.length < 16) {
      issues.add(src.from, `token for ${name} must be at least 16 characters`);
    } else tokens.push({ name, token });
  });
  return tokens;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
