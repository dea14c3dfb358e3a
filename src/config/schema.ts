// Every setting once: its place in the YAML file (the property path), its environment variable (`env`), its type,
// limits and default. The file's known keys, the environment map and the readers' limits all come from here.
// `fileKey: false` marks a setting the file may not set (the embedded kubeconfig path is a per-checkout choice).
import { Type, type TSchema } from 'typebox';

const int = (env: string, minimum: number, maximum: number, fallback: number) =>
  Type.Integer({ env, minimum, maximum, default: fallback });
const num = (env: string, minimum: number, maximum: number, fallback: number) =>
  Type.Number({ env, minimum, maximum, default: fallback });
const str = (env: string, extra: Record<string, unknown> = {}) => Type.String({ env, ...extra });

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The simulator's seed data sets (src/sim/seed.ts). */
export const SIM_SEEDS = ['demo', 'none'] as const;

/** Relative to the working directory of `npm start`; `.beekeeper/` is git-ignored. */
export const EMBEDDED_KUBECONFIG = '.beekeeper/embedded.kubeconfig';

/** Per-hub limits; a hub entry in the file may override each under the same name as in `HubDefaults`. */
const concurrency = Type.Object({
  perHub: int('BEEKEEPER_CONCURRENCY', 1, 10_000, 20),
  global: int('BEEKEEPER_GLOBAL_CONCURRENCY', 1, 100_000, 50),
  // As many as interactive work has, in slots of their own: an edge sweep keeps the pace it had when both
  // classes shared one queue, and no longer at the expense of user requests.
  background: int('BEEKEEPER_BACKGROUND_CONCURRENCY', 1, 10_000, 20),
  backgroundGlobal: int('BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY', 1, 100_000, 50),
});

export const SettingsSchema = Type.Object({
  /** `east=/etc/kube/east.yaml#context,west=in-cluster`, or a list of hub mappings in the file (hubs.ts). */
  hubs: Type.Unknown({ env: 'BEEKEEPER_HUBS' }),
  redis: Type.Object({
    url: str('REDIS_URL'),
    password: str('BEEKEEPER_REDIS_PASSWORD'),
    // A `{hash tag}` keeps every key in one Redis Cluster slot, as BullMQ requires.
    prefix: str('BEEKEEPER_REDIS_PREFIX', { default: '{beekeeper}' }),
    sentinel: Type.Object({
      sentinels: Type.Unknown({ env: 'BEEKEEPER_REDIS_SENTINELS' }),
      name: str('BEEKEEPER_REDIS_SENTINEL_NAME'),
      password: str('BEEKEEPER_REDIS_SENTINEL_PASSWORD'),
    }),
    cluster: Type.Object({ nodes: Type.Unknown({ env: 'BEEKEEPER_REDIS_CLUSTER_NODES' }) }),
  }),
  http: Type.Object({ host: str('BEEKEEPER_HTTP_HOST'), port: int('PORT', 0, 65535, 8080) }),
  auth: Type.Object({ tokens: Type.Unknown({ env: 'BEEKEEPER_API_TOKENS' }) }),
  concurrency,
  rateLimits: Type.Object({
    qps: num('BEEKEEPER_KUBE_QPS', 0.1, 10_000, 20),
    burst: int('BEEKEEPER_KUBE_BURST', 1, 100_000, 40),
  }),
  logLevel: str('LOG_LEVEL', { enum: LOG_LEVELS, default: 'info' }),
  sim: Type.Object({
    speed: num('BEEKEEPER_SIM_SPEED', 0.01, 100_000, 60),
    seed: str('BEEKEEPER_SIM_SEED', { enum: SIM_SEEDS, default: 'demo' }),
    kubeconfig: str('BEEKEEPER_SIM_KUBECONFIG', { default: EMBEDDED_KUBECONFIG, fileKey: false }),
  }),
  stateNamespace: str('BEEKEEPER_STATE_NAMESPACE', { default: 'beekeeper' }),
  stateHub: str('BEEKEEPER_STATE_HUB'),
  jobs: Type.Object({
    lockDurationMs: int('BEEKEEPER_JOB_LOCK_MS', 1000, 3_600_000, 60_000),
    stalledIntervalMs: int('BEEKEEPER_JOB_STALLED_INTERVAL_MS', 500, 3_600_000, 30_000),
    keepCompletedSeconds: int('BEEKEEPER_JOB_KEEP_COMPLETED_SECONDS', 0, 90 * 86_400, 86_400),
    keepCompletedCount: int('BEEKEEPER_JOB_KEEP_COMPLETED_COUNT', 0, 1_000_000, 1000),
    keepFailedSeconds: int('BEEKEEPER_JOB_KEEP_FAILED_SECONDS', 0, 90 * 86_400, 7 * 86_400),
    keepFailedCount: int('BEEKEEPER_JOB_KEEP_FAILED_COUNT', 0, 1_000_000, 5000),
    shutdownGraceMs: int('BEEKEEPER_SHUTDOWN_GRACE_MS', 0, 3_600_000, 20_000),
  }),
  resync: Type.Object({ intervalSeconds: int('BEEKEEPER_RESYNC_INTERVAL_SECONDS', 1, 86_400, 60) }),
});

/** One setting: its dotted path and its schema (with `env`, limits and default as annotations). */
export interface Setting {
  path: string;
  schema: TSchema & { env?: string; minimum?: number; maximum?: number; default?: unknown; fileKey?: boolean };
}

function leaves(schema: TSchema, prefix: string): Setting[] {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!props) return [{ path: prefix, schema }];
  return Object.entries(props).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

export const SETTINGS: ReadonlyMap<string, Setting> = new Map(leaves(SettingsSchema, '').map((s) => [s.path, s]));

export function setting(path: string): Setting {
  const s = SETTINGS.get(path);
  if (!s) throw new Error(`no setting ${path} in SettingsSchema`);
  return s;
}

/** A setting's limits and default, as the numeric readers take them. */
export function limits(path: string, fallbackOverride?: number): { min: number; max: number; fallback: number } {
  const { minimum, maximum, default: fallback } = setting(path).schema;
  return { min: minimum!, max: maximum!, fallback: fallbackOverride ?? (fallback as number) };
}
