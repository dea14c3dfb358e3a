// One schema (config/schema.ts) for the environment and the optional YAML file (BEEKEEPER_CONFIG): each setting's
// variable, file key, limits and default. The settings are validated once, by a compiled validator, and every
// problem is listed at once; the result is a frozen Config whose type is the schema's (config/config-schema.ts).
// Precedence: environment, then file, then defaults. Only entry files pass `process.env` in.
import type { Static } from 'typebox';
import type { ConfigSchema, HubConfigSchema, RedisConfigSchema, StaticTokenSchema } from './config/config-schema.js';
import { checkRules } from './config/rules.js';
import type { HostPortSchema, HubLimitsSchema, JobsSchema } from './config/schema.js';
import { SETTINGS } from './config/settings.js';
import type { ApiTokenSchema, TeamSchema } from './config/team-schemas.js';
import { locate, rank, readSources } from './config/sources.js';
import { authConfig } from './config/auth.js';
import { validateSettings, type Problem, type Settings } from './config/validate.js';

export { DEFAULT_REDIS_PREFIX } from './config/redis.js';

export type Config = Static<typeof ConfigSchema>;
export type HubConfig = Static<typeof HubConfigSchema>;
/** Concurrency and rate limits of hubs that do not set their own. */
export type HubDefaults = Static<typeof HubLimitsSchema>;
export type RedisConfig = Static<typeof RedisConfigSchema>;
export type HostPort = Static<typeof HostPortSchema>;
/** A token entry as configured (the token or its SHA-256). */
export type ApiToken = Static<typeof ApiTokenSchema>;
/** A token entry as kept: its SHA-256 only. */
export type StaticToken = Static<typeof StaticTokenSchema>;
export type JobsConfig = Static<typeof JobsSchema>;
export type TeamConfig = Static<typeof TeamSchema>;
export type LogLevel = Config['logLevel'];
export type SimSeed = Config['sim']['seed'];

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
  const sources = readSources(env);
  const { raw, origins, fileIssues } = sources;
  const { value, settings, problems } = validateSettings(raw);
  // Entries a shorthand could not read at all are reported as written; the schema's errors for them would only
  // repeat it.
  const unreadable = [...origins].flatMap(([path, origin]) =>
    [...(origin.list?.problems ?? [])].map(([i, reason]) => ({ path: [...path.split('.'), String(i)], reason })),
  );
  const within = (p: Problem) => unreadable.some((u) => u.path.every((key, i) => p.path[i] === key));
  const all = [
    ...unreadable.map((p) => ({ ...p, bare: true })),
    ...problems.filter((p) => !within(p)).map((p) => ({ ...p, bare: false })),
    ...checkRules(value, (path) => origins.has(path)).map((p) => ({ ...p, bare: false })),
  ];
  if (fileIssues.length > 0 || all.length > 0 || settings === undefined) {
    const sorted = all
      .map((p) => ({ ...p, rank: rank(p.path) }))
      .sort((a, b) => compareRanks(a.rank, b.rank))
      .map((p) => `${locate(sources, p.path, p.bare)} ${p.reason}`);
    throw new ConfigError([...fileIssues, ...sorted]);
  }
  return deepFreeze(toConfig(settings));
}

/** The config of embedded mode: the simulator's one hub, reached through the kubeconfig it hands out. */
export function withEmbeddedHub(config: Config, hub: { name: string; kubeconfigData: string }): Config {
  return deepFreeze({
    ...config,
    hubs: [{ name: hub.name, kubeconfigData: hub.kubeconfigData, inCluster: false, ...config.hubDefaults }],
    stateHub: hub.name,
  });
}

function toConfig(s: Settings): Config {
  const hubDefaults: HubDefaults = {
    concurrency: s.concurrency.perHub,
    globalConcurrency: s.concurrency.global,
    backgroundConcurrency: s.concurrency.background,
    backgroundGlobalConcurrency: s.concurrency.backgroundGlobal,
    sweepConcurrency: s.concurrency.sweep,
    ...(s.rateLimits.qps !== undefined ? { qps: s.rateLimits.qps } : {}),
    ...(s.rateLimits.burst !== undefined ? { burst: s.rateLimits.burst } : {}),
    maxInFlight: s.rateLimits.maxInFlight,
  };
  const hubs = (s.hubs ?? []).map((hub): HubConfig => ({ ...hubDefaults, ...hub, inCluster: hub.inCluster ?? false }));
  const { sentinel, cluster, url, password, prefix } = s.redis;
  return {
    hubs,
    hubDefaults,
    hubCredentials: s.hubCredentials,
    redis: {
      ...(url ? { url } : {}),
      ...(sentinel.sentinels && sentinel.name
        ? {
            sentinel: {
              sentinels: sentinel.sentinels,
              name: sentinel.name,
              ...(sentinel.password ? { password: sentinel.password } : {}),
            },
          }
        : {}),
      ...(cluster.nodes ? { cluster: { nodes: cluster.nodes } } : {}),
      ...(password ? { password } : {}),
      prefix,
    },
    // Loopback unless told otherwise, for every role: a deployment says 0.0.0.0 on purpose.
    http: { host: s.http.host ?? '127.0.0.1', port: s.http.port },
    auth: authConfig(s.auth),
    teams: s.teams ?? [],
    teamLabel: s.teamLabel,
    logLevel: s.logLevel,
    sim: s.sim,
    stateNamespace: s.stateNamespace,
    stateHub: s.stateHub ?? hubs[0]?.name ?? 'local',
    jobs: s.jobs,
    resync: s.resync,
    edge: s.edge,
    webhooks: s.webhooks,
  };
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
