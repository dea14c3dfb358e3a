// ExpiryPolicy: declared once. The CRD (deploy/crds/), the API's request bodies and the policy rules' types
// (hive/expiry/policy.ts) come from these schemas.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';
import { apiOnly, crdOnly, GO_DURATION_PATTERN, LabelSelectorSchema } from './shared.js';

// Each list narrows the policy; an empty one would narrow nothing and silently cover every cluster, so a list a
// request gives names something (leave it out to mean all).
const Names = (what: string) =>
  Type.Optional(
    Type.Array(Type.String(apiOnly({ minLength: 1 })), {
      ...apiOnly({ minItems: 1 }),
      description: `Only clusters of these ${what}; leave out for all`,
    }),
  );
const Duration = (description: string) =>
  Type.String({ ...crdOnly({ pattern: GO_DURATION_PATTERN }), description, examples: ['8h'] });

export const ExpiryPolicySpecSchema = Type.Object({
  selector: Type.Optional(
    Type.Object(
      {
        hubs: Names('hubs'),
        namespaces: Names('namespaces'),
        teams: Names('teams (values of the team label, spec.teamLabel)'),
        labelSelector: Type.Optional(LabelSelectorSchema),
      },
      {
        description:
          'Which clusters the policy covers: all of the given conditions hold; no selector covers every cluster',
      },
    ),
  ),
  teamLabel: Type.Optional(
    Type.String({ ...crdOnly({ default: 'beekeeper.io/team' }), examples: ['beekeeper.io/team'] }),
  ),
  maxLifetime: Type.Optional(
    Duration(
      'No cluster lives longer than this from its creation, extensions included. A Go duration (h, m, s; no d).',
    ),
  ),
  defaultLifetime: Type.Optional(
    Duration('Given to selected clusters that have no expiry. A Go duration (h, m, s; no d).'),
  ),
  warnings: Type.Optional(
    Type.Array(
      Type.String({
        ...crdOnly({ pattern: GO_DURATION_PATTERN }),
        description: 'Go duration (h, m, s; no d)',
        examples: ['8h'],
      }),
      {
        ...crdOnly({ default: ['24h', '1h'] }),
        description: 'Lead times before deletion at which warnings are sent.',
        examples: [['24h', '1h']],
      },
    ),
  ),
  dryRun: Type.Optional(Type.Boolean(crdOnly({ default: false }))),
});

export const ExpiryPolicyStatusSchema = Type.Object({
  lastApplied: Type.Optional(
    Type.Partial(
      Type.Object({
        at: Type.String(),
        cluster: Type.String(),
        action: Type.Union([Type.Literal('default'), Type.Literal('cap')]),
        expiresAt: Type.String(),
      }),
      { description: 'The last cluster this policy gave a default expiry or capped.' },
    ),
  ),
});

/** The API's view of a policy (/v1/expiry-policies). */
export const ExpiryPolicyViewSchema = Type.Object(
  {
    name: Type.String(),
    team: Type.Optional(
      Type.String({ description: 'The owning team (label beekeeper.io/team): covers its clusters only; absent: all' }),
    ),
    spec: ExpiryPolicySpecSchema,
    status: ExpiryPolicyStatusSchema,
    createdAt: Type.Optional(Type.String()),
  },
  { title: 'ExpiryPolicy' },
);

export type ExpiryPolicySpec = Static<typeof ExpiryPolicySpecSchema>;
export type ExpiryPolicyView = Static<typeof ExpiryPolicyViewSchema>;
export type ExpiryPolicyStatus = Static<typeof ExpiryPolicyStatusSchema>;

export const expiryPolicyCrd: CrdDefinition = {
  kind: 'ExpiryPolicy',
  plural: 'expirypolicies',
  shortNames: ['exp'],
  comment:
    'ExpiryPolicy: lifetime caps, defaults and warning lead times for clusters selected by hub, namespace, labels\n' +
    "or team. Hive's hive.openshift.io/delete-after annotation is what deletes the clusters.",
  printerColumns: [
    { name: 'MaxLifetime', type: 'string', jsonPath: '.spec.maxLifetime' },
    {
      name: 'Team',
      type: 'string',
      jsonPath: '.metadata.labels.beekeeper\\.io/team',
      description: 'Owning team; none: platform-wide',
    },
    { name: 'DefaultLifetime', type: 'string', jsonPath: '.spec.defaultLifetime' },
    { name: 'Warnings', type: 'string', jsonPath: '.spec.warnings' },
    { name: 'LastApplied', type: 'string', jsonPath: '.status.lastApplied.at', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: ExpiryPolicySpecSchema,
  status: ExpiryPolicyStatusSchema,
};
