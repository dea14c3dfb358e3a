// Who may call the API: static tokens and teams (members, owned namespaces and pools, quotas), as the file and the
// environment give them. Annotations as in config/schema.ts.
import { Type } from 'typebox';
import { ROLES, TOKEN_NAME, TOKEN_ROLES } from './names.js';
import { DNS_LABEL, nonEmpty } from './setting-builders.js';

/** A token's SHA-256 in hex (64 digits). */
export const TOKEN_SHA256 = /^[0-9a-fA-F]{64}$/;

export const ApiTokenSchema = Type.Object(
  {
    /** Who holds it; appears in logs and audit, the token never does. */
    name: Type.String({ pattern: TOKEN_NAME.source, rule: 'letters, digits, . _ - (at most 63)' }),
    /** The token itself: hashed when the settings are read, never kept. */
    token: Type.Optional(Type.String({ minLength: 16, secret: true })),
    /** Or only its SHA-256 (hex), as `beekeeper token new` prints it: the configuration then holds no secret. */
    tokenSha256: Type.Optional(Type.String({ pattern: TOKEN_SHA256.source, rule: 'the hex SHA-256 of the token' })),
    /** The team the holder acts for; none: a platform admin's token (the only kind before teams existed). */
    team: Type.Optional(Type.String(DNS_LABEL)),
    /** Default: platform-admin without a team, required with one. */
    role: Type.Optional(Type.Enum(TOKEN_ROLES)),
  },
  { additionalProperties: false },
);

/** Who belongs to a team: exactly one of user, group or serviceAccount (`namespace/name`), with a role. */
export const TeamMemberSchema = Type.Object(
  {
    /** The signed-in name: an OIDC username claim, or `system:serviceaccount:<ns>:<name>` from a TokenReview. */
    user: Type.Optional(nonEmpty()),
    /** A group the identity provider (OIDC groups claim, TokenReview) reports. */
    group: Type.Optional(nonEmpty()),
    serviceAccount: Type.Optional(
      Type.String({ pattern: '^[a-z0-9-]+/[a-z0-9.-]+$', rule: 'namespace/name of a ServiceAccount' }),
    ),
    role: Type.Enum(ROLES),
  },
  { additionalProperties: false },
);

/** Limits on what one team holds at once (src/services/quotas). Absent: no limit. */
export const TeamQuotasSchema = Type.Object(
  {
    /** ClusterClaims not yet released. */
    claims: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    /** ClusterDeployments the team owns (pool clusters count for the pool's team). */
    clusters: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    /** Of those, the ones not hibernating. */
    runningClusters: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    /** Longest lifetime (delete-after, claim lifetime) a team member may give, in hours. */
    maxLifetimeHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 3650 })),
  },
  { additionalProperties: false },
);

/** `hub/namespace` (one hub) or `namespace` (every hub). */
export const TEAM_NAMESPACE = /^(?:([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\/)?([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)$/;
/** `hub/namespace/name` of a ClusterPool. */
export const TEAM_POOL =
  /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\/[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\/[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$/;

export const TeamSchema = Type.Object(
  {
    name: Type.String(DNS_LABEL),
    /** Namespaces it owns: `hub/namespace`, or `namespace` on every hub. A namespace's team label also counts. */
    namespaces: Type.Optional(
      Type.Array(Type.String({ pattern: TEAM_NAMESPACE.source, rule: 'hub/namespace or namespace' })),
    ),
    /** Pools it owns in a namespace it does not (a shared pool namespace): `hub/namespace/name`. */
    pools: Type.Optional(Type.Array(Type.String({ pattern: TEAM_POOL.source, rule: 'hub/namespace/name' }))),
    members: Type.Optional(Type.Array(TeamMemberSchema)),
    quotas: Type.Optional(TeamQuotasSchema),
  },
  { additionalProperties: false },
);
