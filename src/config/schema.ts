// Every setting once: its place in the YAML file (the property path), its environment variable (`env`), its type,
// limits and default. The file's known keys, the environment map, the validator and the error messages all come
// from here. Annotations the validator ignores and the messages use: `env` (the variable), `rule` (what a pattern
// or a list asks for, in words), `secret` (never echo the value), `fileKey: false` (the file may not set it: the
// embedded kubeconfig path is a per-checkout choice).
import { isIP } from 'node:net';
import { Type } from 'typebox';
import { INTERVAL_RULE, intervalCron } from './interval-cron.js';
import { HUB_NAME, ROLES, TOKEN_NAME, TOKEN_ROLES } from './names.js';
import { DNS_LABEL, int, nonEmpty, num, str, TEXT } from './setting-builders.js';
import { ApiTokenSchema, TeamSchema } from './team-schemas.js';

export { HUB_NAME, ROLES, TOKEN_NAME, TOKEN_ROLES };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The simulator's seed data sets (src/sim/seed.ts). */
export const SIM_SEEDS = ['demo', 'none'] as const;

/** Relative to the working directory of `npm start`; `.beekeeper/` is git-ignored. */
export const EMBEDDED_KUBECONFIG = '.beekeeper/embedded.kubeconfig';

/** `hub/namespace/name` of the tokens Secret. */
export const TOKENS_SECRET =
  /^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?)$/;

// Per-hub limits: a setting each (the default of every hub), and a hub entry in the file may override each.
const CONCURRENCY = { minimum: 1, maximum: 10_000 };
const GLOBAL_CONCURRENCY = { minimum: 1, maximum: 100_000 };
const QPS = { minimum: 0.1, maximum: 10_000 };
const BURST = { minimum: 1, maximum: 100_000 };
const MAX_IN_FLIGHT = { minimum: 1, maximum: 10_000 };

/** The limits every hub has (the settings' values unless its file entry overrides them). */
export const HubLimitsSchema = Type.Object({
  /** Interactive jobs (what API callers wait on) one worker process runs at once for this hub. */
  concurrency: Type.Integer(CONCURRENCY),
  /** Interactive jobs all replicas together run at once for this hub (BullMQ global concurrency). */
  globalConcurrency: Type.Integer(GLOBAL_CONCURRENCY),
  /** Background jobs (the scheduler's: sweeps, warnings, policies, heartbeats), in slots of their own. */
  backgroundConcurrency: Type.Integer(CONCURRENCY),
  backgroundGlobalConcurrency: Type.Integer(GLOBAL_CONCURRENCY),
  /** PATCHes a schedule sweep keeps in flight to this hub (its pool inside the one sweep job, docs/schedules.md). */
  sweepConcurrency: Type.Integer(CONCURRENCY),
  /** An optional client-side Kubernetes request rate cap for this hub; none by default (the hub's 429s pace us). */
  qps: Type.Optional(Type.Number(QPS)),
  burst: Type.Optional(Type.Integer(BURST)),
  /** Kubernetes requests in flight to this hub at once per process; the window halves on 429 + Retry-After. */
  maxInFlight: Type.Integer(MAX_IN_FLIGHT),
});

/** A hub as the file lists it, and as BEEKEEPER_HUBS' shorthand is read into (hubs.ts). */
export const HubEntrySchema = Type.Object(
  {
    name: Type.String(DNS_LABEL),
    /** Path to a kubeconfig file (never its content). */
    kubeconfig: Type.Optional(nonEmpty()),
    /** Context inside that kubeconfig; its current context when absent. */
    context: Type.Optional(nonEmpty()),
    /** Use the pod's service account instead of a kubeconfig. */
    inCluster: Type.Optional(Type.Boolean()),
    ...Type.Partial(HubLimitsSchema).properties,
  },
  { additionalProperties: false },
);

export const HostPortSchema = Type.Object(
  { host: nonEmpty(), port: Type.Integer({ minimum: 1, maximum: 65535 }) },
  { additionalProperties: false },
);
const hostPorts = (env: string) =>
  Type.Optional(Type.Array(HostPortSchema, { env, minItems: 1, rule: 'a non-empty list of host:port' }));

const concurrency = Type.Object({
  perHub: int('BEEKEEPER_CONCURRENCY', CONCURRENCY.minimum, CONCURRENCY.maximum, 20),
  global: int('BEEKEEPER_GLOBAL_CONCURRENCY', GLOBAL_CONCURRENCY.minimum, GLOBAL_CONCURRENCY.maximum, 50),
  // As many as interactive work has, in slots of their own: an edge sweep keeps the pace it had when both
  // classes shared one queue, and no longer at the expense of user requests.
  background: int('BEEKEEPER_BACKGROUND_CONCURRENCY', CONCURRENCY.minimum, CONCURRENCY.maximum, 20),
  backgroundGlobal: int(
    'BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY',
    GLOBAL_CONCURRENCY.minimum,
    GLOBAL_CONCURRENCY.maximum,
    50,
  ),
  sweep: int('BEEKEEPER_SWEEP_CONCURRENCY', CONCURRENCY.minimum, CONCURRENCY.maximum, 32),
});

export const JobsSchema = Type.Object({
  /** How long a worker's lock on a job lasts without renewal; a crashed worker's jobs are recovered after it. */
  lockDurationMs: int('BEEKEEPER_JOB_LOCK_MS', 1000, 3_600_000, 60_000),
  stalledIntervalMs: int('BEEKEEPER_JOB_STALLED_INTERVAL_MS', 500, 3_600_000, 30_000),
  keepCompletedSeconds: int('BEEKEEPER_JOB_KEEP_COMPLETED_SECONDS', 0, 90 * 86_400, 86_400),
  keepCompletedCount: int('BEEKEEPER_JOB_KEEP_COMPLETED_COUNT', 0, 1_000_000, 1000),
  keepFailedSeconds: int('BEEKEEPER_JOB_KEEP_FAILED_SECONDS', 0, 90 * 86_400, 7 * 86_400),
  keepFailedCount: int('BEEKEEPER_JOB_KEEP_FAILED_COUNT', 0, 1_000_000, 5000),
  /** On shutdown, how long active jobs may run on before they are handed back to the queue. */
  shutdownGraceMs: int('BEEKEEPER_SHUTDOWN_GRACE_MS', 0, 3_600_000, 20_000),
});

/** The embedded simulator; `kubeconfig` is where `npm start` writes the kubeconfig of its hub (for kubectl). */
export const SimSchema = Type.Object({
  speed: num('BEEKEEPER_SIM_SPEED', 0.01, 100_000, 60),
  seed: Type.Enum(SIM_SEEDS, { env: 'BEEKEEPER_SIM_SEED', default: 'demo' }),
  kubeconfig: nonEmpty({ env: 'BEEKEEPER_SIM_KUBECONFIG', default: EMBEDDED_KUBECONFIG, fileKey: false }),
});

/** The scheduler role's periodic resync (src/schedules/resync.ts). */
export const ResyncSchema = Type.Object({
  intervalSeconds: Type.Refine(
    int('BEEKEEPER_RESYNC_INTERVAL_SECONDS', 1, 86_400, 60),
    (seconds) => intervalCron(seconds) !== undefined,
    (seconds) => `${seconds} must be ${INTERVAL_RULE}`,
  ),
  // How long an unfinished Operation is left to the request that made it before the resync queues its job again
  // (a request may still be enqueueing it). Drills shorten it; production has no reason to.
  operationGraceSeconds: int('BEEKEEPER_OPERATION_REPAIR_GRACE_SECONDS', 0, 3600, 30),
});

/**
 * The HTTP edge and where webhooks may post (docs/edge.md, docs/webhooks.md). Lists are comma-separated in the
 * environment.
 */
const CIDR = /^(?:\d{1,3}(?:\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\/\d{1,3})$/;
const isCidr = (text: string) => {
  const [ip = '', bits = ''] = text.split('/');
  const family = isIP(ip);
  return CIDR.test(text) && family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
};
export const EdgeSchema = Type.Object({
  /** Requests per minute per signed-in caller (per client address when open); 0: no limit. Probes and /metrics are exempt. */
  rateLimit: Type.Object({ perMinute: int('BEEKEEPER_RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 600) }),
  /** Browser origins (portals) allowed to call the API; none: no CORS headers at all. */
  corsOrigins: Type.Array(
    Type.String({ pattern: '^https?://[^/\\s]+$', rule: 'an origin: http(s)://host[:port], no path' }),
    { env: 'BEEKEEPER_CORS_ORIGINS', default: [] },
  ),
});
export const WebhooksSchema = Type.Object({
  /** Let webhooks post to loopback, private, link-local and CGNAT addresses (never to cloud metadata endpoints). */
  allowPrivate: Type.Boolean({ env: 'BEEKEEPER_WEBHOOK_ALLOW_PRIVATE', default: false }),
  /** Address ranges webhooks may post to even though they are refused otherwise (`10.1.0.0/16,fd12::/64`). */
  allowCidrs: Type.Array(
    Type.Refine(Type.String(), isCidr, () => `must be a CIDR such as 10.1.0.0/16`),
    { env: 'BEEKEEPER_WEBHOOK_ALLOW_CIDRS', default: [] },
  ),
});

/** What the environment and the file may say, before defaults that depend on other settings are filled in. */
export const SettingsSchema = Type.Object({
  /** `east=/etc/kube/east.yaml#context,west=in-cluster` (hubs.ts), or a list of hub mappings in the file. */
  hubs: Type.Optional(Type.Array(HubEntrySchema, { env: 'BEEKEEPER_HUBS' })),
  redis: Type.Object({
    url: str('REDIS_URL', { pattern: '^rediss?://\\S+$', rule: 'a redis:// or rediss:// URL', secret: true }),
    password: str('BEEKEEPER_REDIS_PASSWORD', { ...TEXT, secret: true }),
    // A `{hash tag}` keeps every key in one Redis Cluster slot, as BullMQ requires.
    prefix: Type.String({
      env: 'BEEKEEPER_REDIS_PREFIX',
      default: '{beekeeper}',
      pattern: '^[^\\s:]+$',
      rule: 'free of spaces and ":" (BullMQ joins keys with ":")',
    }),
    sentinel: Type.Object({
      /** `host:port,...` in the environment; `host:port` strings or `{host, port}` in the file (redis.ts). */
      sentinels: hostPorts('BEEKEEPER_REDIS_SENTINELS'),
      name: str('BEEKEEPER_REDIS_SENTINEL_NAME', TEXT),
      /** Authenticates to the sentinels themselves (the data password is `redis.password`). */
      password: str('BEEKEEPER_REDIS_SENTINEL_PASSWORD', { ...TEXT, secret: true }),
    }),
    cluster: Type.Object({ nodes: hostPorts('BEEKEEPER_REDIS_CLUSTER_NODES') }),
  }),
  // Loopback unless told otherwise, for every role: deployments say BEEKEEPER_HTTP_HOST=0.0.0.0 on purpose.
  http: Type.Object({ host: str('BEEKEEPER_HTTP_HOST', TEXT), port: int('PORT', 0, 65535, 8080) }),
  auth: Type.Object({
    /** `name=token,...` in the environment (tokens.ts), a list of `{name, token, team, role}` in the file. */
    tokens: Type.Optional(Type.Array(ApiTokenSchema, { env: 'BEEKEEPER_API_TOKENS' })),
    /** No sign-in at all: everyone who reaches the API is a platform admin. Must be said explicitly. */
    open: Type.Boolean({ env: 'BEEKEEPER_AUTH_OPEN', default: false }),
    /** Signed-in users and groups (OIDC, TokenReview) who are platform admins. File only. */
    platformAdmins: Type.Object({
      users: Type.Optional(Type.Array(nonEmpty())),
      groups: Type.Optional(Type.Array(nonEmpty())),
    }),
    // Sign-in sources besides auth.tokens (docs/sign-in.md).
    /** A YAML list of tokens ({name, tokenSha256 | token, team, role}), re-read when it changes. */
    tokensFile: str('BEEKEEPER_API_TOKENS_FILE', TEXT),
    /** `hub/namespace/name` of a Secret whose key `tokens.yaml` holds the same list, re-read periodically. */
    tokensSecret: str('BEEKEEPER_API_TOKENS_SECRET', {
      pattern: TOKENS_SECRET.source,
      rule: 'hub/namespace/name of a Secret',
    }),
    /** How often the tokens file is checked besides its change events, and the tokens Secret re-read. */
    reloadSeconds: int('BEEKEEPER_AUTH_RELOAD_SECONDS', 1, 3600, 30),
    oidc: Type.Object({
      issuer: str('BEEKEEPER_OIDC_ISSUER', { pattern: '^https?://\\S+$', rule: 'an http(s) URL' }),
      audience: str('BEEKEEPER_OIDC_AUDIENCE', TEXT),
      /** Default: the jwks_uri of `<issuer>/.well-known/openid-configuration`. */
      jwksUri: str('BEEKEEPER_OIDC_JWKS_URI', { pattern: '^https?://\\S+$', rule: 'an http(s) URL' }),
      usernameClaim: Type.String({ env: 'BEEKEEPER_OIDC_USERNAME_CLAIM', default: 'sub', ...TEXT }),
      groupsClaim: Type.String({ env: 'BEEKEEPER_OIDC_GROUPS_CLAIM', default: 'groups', ...TEXT }),
      clockSkewSeconds: int('BEEKEEPER_OIDC_CLOCK_SKEW_SECONDS', 0, 600, 30),
      /** Keys are kept at most this long; a token with an unknown key id fetches them again (at most every 30 s). */
      jwksCacheSeconds: int('BEEKEEPER_OIDC_JWKS_CACHE_SECONDS', 1, 86_400, 600),
    }),
    tokenReview: Type.Object({
      /** A configured hub whose API server reviews ServiceAccount tokens (authentication.k8s.io/v1 TokenReview). */
      hub: str('BEEKEEPER_TOKENREVIEW_HUB', DNS_LABEL),
      /** Audiences the token must be for; default: the API server's own. */
      audiences: Type.Optional(Type.Array(nonEmpty(), { env: 'BEEKEEPER_TOKENREVIEW_AUDIENCES' })),
      /** How long an answer (yes or no) is remembered, keyed by the token's SHA-256. */
      cacheSeconds: int('BEEKEEPER_TOKENREVIEW_CACHE_SECONDS', 0, 600, 10),
    }),
    /** /metrics asks for a token too (probes, /openapi.json and /docs stay open). */
    metricsRequireToken: Type.Boolean({ env: 'BEEKEEPER_METRICS_REQUIRE_TOKEN', default: false }),
  }),
  /** Who owns which namespaces and pools, who belongs to them, and their quotas. File only. */
  teams: Type.Optional(Type.Array(TeamSchema)),
  /** The namespace label that names its owning team (besides the namespaces `teams` lists). */
  teamLabel: Type.String({ env: 'BEEKEEPER_TEAM_LABEL', default: 'beekeeper.io/team', minLength: 1 }),
  concurrency,
  rateLimits: Type.Object({
    /** Optional caps; unset: no client-side rate limit (controller-runtime >= 0.15 does the same). */
    qps: Type.Optional(Type.Number({ env: 'BEEKEEPER_KUBE_QPS', ...QPS })),
    burst: Type.Optional(Type.Integer({ env: 'BEEKEEPER_KUBE_BURST', ...BURST })),
    maxInFlight: int('BEEKEEPER_KUBE_MAX_IN_FLIGHT', MAX_IN_FLIGHT.minimum, MAX_IN_FLIGHT.maximum, 64),
  }),
  /** Hub kubeconfigs (and in-cluster tokens) are read again when they change (docs/hub-credentials.md). */
  hubCredentials: Type.Object({
    /** How often they are read again besides their directory's change events, which some volumes do not send. */
    pollSeconds: int('BEEKEEPER_HUB_CREDENTIALS_POLL_SECONDS', 1, 3600, 20),
  }),
  logLevel: Type.Enum(LOG_LEVELS, { env: 'LOG_LEVEL', default: 'info' }),
  sim: SimSchema,
  /** Namespace on the state hub holding Beekeeper's own resources. */
  stateNamespace: Type.String({ env: 'BEEKEEPER_STATE_NAMESPACE', default: 'beekeeper', ...DNS_LABEL }),
  /** Hub holding Beekeeper's own resources: the first hub (or `local` in embedded mode) unless set. */
  stateHub: str('BEEKEEPER_STATE_HUB', DNS_LABEL),
  jobs: JobsSchema,
  resync: ResyncSchema,
  edge: EdgeSchema,
  webhooks: WebhooksSchema,
});
