// The shapes of GET /v1/me and /v1/teams (services/quotas/team-views.ts), checked against the domain types.
import { Type, type Static } from 'typebox';
import type { Caller } from '../../auth/caller.js';
import { ROLES } from '../../config/schema.js';
import { TeamQuotasSchema } from '../../config/team-schemas.js';
import { DNS_LABEL } from '../../hive/names.js';
import type { TeamView } from '../../services/quotas/team-views.js';

const Role = Type.Enum(ROLES, { description: 'viewer < operator < admin' });

const SubjectSchema = Type.Union([
  Type.Object({ kind: Type.Literal('User'), name: Type.String() }),
  Type.Object({ kind: Type.Literal('Group'), name: Type.String() }),
  Type.Object({ kind: Type.Literal('ServiceAccount'), name: Type.String(), namespace: Type.String() }),
]);

export const MeSchema = Type.Object(
  {
    name: Type.String({ description: "The signed-in name: a token's name, an OIDC user, a ServiceAccount" }),
    via: Type.Union(
      [Type.Literal('token'), Type.Literal('oidc'), Type.Literal('serviceaccount'), Type.Literal('open')],
      {
        description: 'How the caller signed in (open: no sign-in is configured)',
      },
    ),
    groups: Type.Array(Type.String()),
    subject: Type.Optional(SubjectSchema),
    grants: Type.Array(Type.Object({ team: Type.String(), role: Role }), {
      description: 'Each team the caller belongs to, with the highest role held there',
    }),
    platformAdmin: Type.Boolean({ description: 'Spans every team, and what no team owns' }),
  },
  { title: 'Me' },
);

export const TeamViewSchema = Type.Object(
  {
    name: Type.String(),
    role: Type.Enum(ROLES, { description: "The caller's role in the team (a platform admin: admin)" }),
    namespaces: Type.Array(Type.String(), { description: 'As configured: hub/namespace, or namespace on every hub' }),
    pools: Type.Array(Type.String(), { description: 'ClusterPools the team owns, hub/namespace/name' }),
    quotas: { ...TeamQuotasSchema, description: 'The limits (absent: no limit)' },
    usage: Type.Object(
      {
        claims: Type.Integer({ description: 'ClusterClaims not being released' }),
        clusters: Type.Integer({
          description: "ClusterDeployments owned (the team's pool clusters included), not being deleted",
        }),
        runningClusters: Type.Integer({ description: 'Of those, the ones whose spec.powerState is not Hibernating' }),
      },
      { description: 'What the team holds now, from the informer caches' },
    ),
  },
  { title: 'Team' },
);

export const TeamNameParams = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 63,
    pattern: DNS_LABEL.source,
    description: 'Team name',
  }),
});

// The schema and the domain type must be the same shape: each is assignable to the other.
const sameShape = <A, B>(check: [A] extends [B] ? ([B] extends [A] ? true : never) : never) => check;
sameShape<Static<typeof TeamViewSchema>, TeamView>(true);
type MeView = Pick<Caller, 'name' | 'via' | 'platformAdmin'> & {
  groups: string[];
  subject?: Caller['subject'];
  grants: Array<{ team: string; role: Caller['grants'][number]['role'] }>;
};
sameShape<Static<typeof MeSchema>, MeView>(true);
