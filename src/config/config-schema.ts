// The shape of the validated configuration, as the rest of Beekeeper sees it: SettingsSchema's values with every
// default filled in, hubs completed with the shared limits, and Redis reduced to the one mode in use. The types of
// src/config.ts are `Static` of these.
import { Type } from 'typebox';
import { ApiTokenSchema, TeamSchema } from './team-schemas.js';
import {
  EdgeSchema,
  HostPortSchema,
  HubEntrySchema,
  HubLimitsSchema,
  JobsSchema,
  LOG_LEVELS,
  ResyncSchema,
  SimSchema,
  WebhooksSchema,
} from './schema.js';

const { name, kubeconfig, context } = HubEntrySchema.properties;

/** A static token as Beekeeper keeps it: its SHA-256, never the token. */
export const StaticTokenSchema = Type.Object({
  name: ApiTokenSchema.properties.name,
  tokenSha256: Type.String(),
  team: ApiTokenSchema.properties.team,
  role: ApiTokenSchema.properties.role,
});

export const HubConfigSchema = Type.Object({
  name,
  kubeconfig,
  context,
  inCluster: Type.Boolean(),
  /** Inline kubeconfig YAML. Only the embedded mode sets this (from the simulator); never read from env. */
  kubeconfigData: Type.Optional(Type.String()),
  ...HubLimitsSchema.properties,
});

export const RedisConfigSchema = Type.Object({
  /** A single server (`redis://` or `rediss://`). Absent: 127.0.0.1:6379, and all-in-one may start a private one. */
  url: Type.Optional(Type.String()),
  /** `password` authenticates to the sentinels themselves (the data password is `password` below). */
  sentinel: Type.Optional(
    Type.Object({
      sentinels: Type.Array(HostPortSchema),
      name: Type.String(),
      password: Type.Optional(Type.String()),
    }),
  ),
  cluster: Type.Optional(Type.Object({ nodes: Type.Array(HostPortSchema) })),
  /** For Sentinel or Cluster (a single server carries it in the URL). */
  password: Type.Optional(Type.String()),
  /** BullMQ prefix and key prefix. A `{hash tag}` keeps every key in one Redis Cluster slot, as BullMQ requires. */
  prefix: Type.String(),
});

export const ConfigSchema = Type.Object({
  /** Empty means: run the embedded simulator with one hub named `local`. */
  hubs: Type.Immutable(Type.Array(HubConfigSchema)),
  /** Concurrency and rate limits of hubs that do not set their own (and of the embedded hub). */
  hubDefaults: HubLimitsSchema,
  /** How often hub credential files are read again besides their change events (docs/hub-credentials.md). */
  hubCredentials: Type.Object({ pollSeconds: Type.Integer() }),
  redis: RedisConfigSchema,
  http: Type.Object({ host: Type.String(), port: Type.Integer() }),
  auth: Type.Object({
    /** Plain tokens are hashed when the settings are read: only digests are kept. */
    tokens: Type.Immutable(Type.Array(StaticTokenSchema)),
    /** No sign-in: every caller is a platform admin. Only when said explicitly (or nothing else is configured in tests). */
    open: Type.Boolean(),
    platformAdmins: Type.Object({
      users: Type.Immutable(Type.Array(Type.String())),
      groups: Type.Immutable(Type.Array(Type.String())),
    }),
    tokensFile: Type.Optional(Type.String()),
    tokensSecret: Type.Optional(Type.Object({ hub: Type.String(), namespace: Type.String(), name: Type.String() })),
    reloadSeconds: Type.Integer(),
    /** Set when an issuer and an audience are. */
    oidc: Type.Optional(
      Type.Object({
        issuer: Type.String(),
        audience: Type.String(),
        jwksUri: Type.Optional(Type.String()),
        usernameClaim: Type.String(),
        groupsClaim: Type.String(),
        clockSkewSeconds: Type.Integer(),
        jwksCacheSeconds: Type.Integer(),
      }),
    ),
    /** Set when a hub is. */
    tokenReview: Type.Optional(
      Type.Object({
        hub: Type.String(),
        audiences: Type.Optional(Type.Immutable(Type.Array(Type.String()))),
        cacheSeconds: Type.Integer(),
      }),
    ),
    metricsRequireToken: Type.Boolean(),
  }),
  teams: Type.Immutable(Type.Array(TeamSchema)),
  teamLabel: Type.String(),
  logLevel: Type.Enum(LOG_LEVELS),
  sim: SimSchema,
  /** Namespace on the state hub holding Beekeeper's own resources. */
  stateNamespace: Type.String(),
  /** Hub holding Beekeeper's own resources: the first hub (or `local` in embedded mode) unless set. */
  stateHub: Type.String(),
  jobs: JobsSchema,
  /** The scheduler role's periodic resync (src/schedules/resync.ts). */
  resync: ResyncSchema,
  edge: EdgeSchema,
  webhooks: WebhooksSchema,
});
