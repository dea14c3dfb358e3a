// One schema for the environment and the optional YAML file (BEEKEEPER_CONFIG). Every value is validated at
// start and every problem is listed at once; the result is a frozen, typed Config. Precedence: environment, then
// file, then defaults. Only entry files pass `process.env` in.
import { createIssues, readEnum, readHostPorts, readInt, readString, readNumber, type Source } from './config/fields.js';
import { readConfigFile } from './config/file.js';
import { HUB_NAME, readHubs, type HubConfig, type HubDefaults } from './config/hubs.js';
import { INTERVAL_RULE, intervalCron } from './config/interval-cron.js';

export type { HubConfig, HubDefaults } from './config/hubs.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The simulator's seed data sets (src/sim/seed.ts). */
export const SIM_SEEDS = ['demo', 'none'] as const;
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

/** The environment variable behind each config path. */
const ENV: Record<string, string> = {
  hubs: 'BEEKEEPER_HUBS',
  'redis.url': 'REDIS_URL',
  'redis.password': 'BEEKEEPER_REDIS_PASSWORD',
  'redis.prefix': 'BEEKEEPER_REDIS_PREFIX',
  'redis.sentinel.sentinels': 'BEEKEEPER_REDIS_SENTINELS',
  'redis.sentinel.name': 'BEEKEEPER_REDIS_SENTINEL_NAME',
  'redis.sentinel.password': 'BEEKEEPER_REDIS_SENTINEL_PASSWORD',
  'redis.cluster.nodes': 'BEEKEEPER_REDIS_CLUSTER_NODES',
  'http.host': 'BEEKEEPER_HTTP_HOST',
  'http.port': 'PORT',
  'auth.tokens': 'BEEKEEPER_API_TOKENS',
  'concurrency.perHub': 'BEEKEEPER_CONCURRENCY',
  'concurrency.global': 'BEEKEEPER_GLOBAL_CONCURRENCY',
  'concurrency.background': 'BEEKEEPER_BACKGROUND_CONCURRENCY',
  'concurrency.backgroundGlobal': 'BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY',
  'rateLimits.qps': 'BEEKEEPER_KUBE_QPS',
  'rateLimits.burst': 'BEEKEEPER_KUBE_BURST',
  logLevel: 'LOG_LEVEL',
  'sim.speed': 'BEEKEEPER_SIM_SPEED',
  'sim.seed': 'BEEKEEPER_SIM_SEED',
  'sim.kubeconfig': 'BEEKEEPER_SIM_KUBECONFIG',
  stateNamespace: 'BEEKEEPER_STATE_NAMESPACE',
  stateHub: 'BEEKEEPER_STATE_HUB',
  'jobs.lockDurationMs': 'BEEKEEPER_JOB_LOCK_MS',
  'jobs.stalledIntervalMs': 'BEEKEEPER_JOB_STALLED_INTERVAL_MS',
  'jobs.keepCompletedSeconds': 'BEEKEEPER_JOB_KEEP_COMPLETED_SECONDS',
  'jobs.keepCompletedCount': 'BEEKEEPER_JOB_KEEP_COMPLETED_COUNT',
  'jobs.keepFailedSeconds': 'BEEKEEPER_JOB_KEEP_FAILED_SECONDS',
  'jobs.keepFailedCount': 'BEEKEEPER_JOB_KEEP_FAILED_COUNT',
  'jobs.shutdownGraceMs': 'BEEKEEPER_SHUTDOWN_GRACE_MS',
  'resync.intervalSeconds': 'BEEKEEPER_RESYNC_INTERVAL_SECONDS',
};

/** Every environment variable Beekeeper reads, for docs and `--help`. */
/** Relative to the working directory of `npm start`; `.beekeeper/` is git-ignored. */
export const EMBEDDED_KUBECONFIG = '.beekeeper/embedded.kubeconfig';

export const CONFIG_ENV_VARS = ['BEEKEEPER_CONFIG', ...Object.values(ENV)];

const NO_COLON = /^[^\s:]+$/;

export function loadConfig(env: Record<string, string | undefined>): Config {
  const issues = createIssues();
  const file = readConfigFile(env.BEEKEEPER_CONFIG, issues);
  const pick = (path: string): Source | undefined => {
    const name = ENV[path];
    const v = name ? env[name] : undefined;
    if (v !== undefined && v !== '') return { value: v, from: name! };
    return file.at(path);
  };

  const perHub = {
    concurrency: readInt(pick('concurrency.perHub'), issues, { min: 1, max: 10_000, fallback: 20 }),
    globalConcurrency: readInt(pick('concurrency.global'), issues, { min: 1, max: 100_000, fallback: 50 }),
    // As many as interactive work has, in slots of their own: an edge sweep keeps the pace it had when both
    // classes shared one queue, and no longer at the expense of user requests.
    backgroundConcurrency: readInt(pick('concurrency.background'), issues, { min: 1, max: 10_000, fallback: 20 }),
    backgroundGlobalConcurrency: readInt(pick('concurrency.backgroundGlobal'), issues, { min: 1, max: 100_000, fallback: 50 }),
    qps: readNumber(pick('rateLimits.qps'), issues, { min: 0.1, max: 10_000, fallback: 20 }),
    burst: readInt(pick('rateLimits.burst'), issues, { min: 1, max: 100_000, fallback: 40 }),
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
      port: readInt(pick('http.port'), issues, { min: 0, max: 65535, fallback: 8080 }),
    },
    auth: { tokens: readTokens(pick('auth.tokens'), issues) },
    logLevel: readEnum(pick('logLevel'), issues, LOG_LEVELS, 'info'),
    sim: {
      speed: readNumber(pick('sim.speed'), issues, { min: 0.01, max: 100_000, fallback: 60 }),
      seed: readEnum(pick('sim.seed'), issues, SIM_SEEDS, 'demo'),
      kubeconfig: readString(pick('sim.kubeconfig'), issues, { fallback: EMBEDDED_KUBECONFIG }),
    },
    stateNamespace: readString(pick('stateNamespace'), issues, { fallback: 'beekeeper', pattern: HUB_NAME, rule: 'a namespace name' }),
    stateHub,
    jobs: {
      lockDurationMs: readInt(pick('jobs.lockDurationMs'), issues, { min: 1000, max: 3_600_000, fallback: 60_000 }),
      stalledIntervalMs: readInt(pick('jobs.stalledIntervalMs'), issues, { min: 500, max: 3_600_000, fallback: 30_000 }),
      keepCompletedSeconds: readInt(pick('jobs.keepCompletedSeconds'), issues, { min: 0, max: 90 * 86_400, fallback: 86_400 }),
      keepCompletedCount: readInt(pick('jobs.keepCompletedCount'), issues, { min: 0, max: 1_000_000, fallback: 1000 }),
      keepFailedSeconds: readInt(pick('jobs.keepFailedSeconds'), issues, { min: 0, max: 90 * 86_400, fallback: 7 * 86_400 }),
      keepFailedCount: readInt(pick('jobs.keepFailedCount'), issues, { min: 0, max: 1_000_000, fallback: 5000 }),
      shutdownGraceMs: readInt(pick('jobs.shutdownGraceMs'), issues, { min: 0, max: 3_600_000, fallback: 20_000 }),
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
export const DEFAULT_REDIS_PREFIX = '{beekeeper}';

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
  const seconds = readInt(src, issues, { min: 1, max: 86_400, fallback: 60 });
  if (src && !intervalCron(seconds)) {
    issues.add(src.from, `${seconds} must be ${INTERVAL_RULE}`);
    return 60;
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
