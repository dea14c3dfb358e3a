// WebhookEndpoint: declared once. The CRD (deploy/crds/), the notifier's types and the API's request body come
// from these schemas. A webhook URL is usually a credential, so the API keeps it in a Secret (urlSecretRef) and
// the resource holds only its redacted form.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';
import { crdOnly } from './shared.js';
import { DNS_LABEL } from '../names.js';

const FormatSchema = Type.Union([Type.Literal('generic'), Type.Literal('slack')], crdOnly({ default: 'generic' }));
const Disabled = Type.Boolean(crdOnly({ default: false }));
const SecretKeyRef = (key: string, description: string) =>
  Type.Object({ name: Type.String(), key: Type.Optional(Type.String(crdOnly({ default: key }))) }, { description });

export const WebhookEndpointSpecSchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        ...crdOnly({ pattern: '^https?://' }),
        description:
          'With urlSecretRef: the redacted URL, for display only (the API writes e.g. ' +
          'https://hooks.slack.com/services/T000/***). Without it: the URL to POST to; it is stored in the clear, ' +
          'so only for URLs that carry no credential.',
      }),
    ),
    urlSecretRef: Type.Optional(
      SecretKeyRef('url', "Secret in Beekeeper's namespace holding the full URL; takes precedence over url."),
    ),
    format: Type.Optional(FormatSchema),
    secretRef: Type.Optional(
      SecretKeyRef('hmac', "Secret in Beekeeper's namespace holding the signing key (its raw bytes)."),
    ),
    disabled: Type.Optional(Disabled),
  },
  {
    'x-kubernetes-validations': [
      {
        rule: 'has(self.url) || has(self.urlSecretRef)',
        message: 'set urlSecretRef (or url for a URL that is no secret)',
      },
    ],
  },
);

/** What the API takes: the URL and the HMAC key go into the endpoint's Secret, never into the resource. */
export const WebhookRequestSchema = Type.Object({
  url: Type.String({
    examples: ['https://hooks.example.com/beekeeper'],
    description: 'Where to POST; kept in the Secret webhook-<name>, only its redacted form is stored and returned',
  }),
  format: Type.Optional(FormatSchema),
  secret: Type.Optional(
    Type.String({
      minLength: 16,
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      description:
        'Signing key in the Standard Webhooks form: whsec_ followed by 24 to 64 random bytes in base64 ' +
        '(webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>); stored in a Secret, never returned',
    }),
  ),
  disabled: Type.Optional(Disabled),
  team: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 63,
      pattern: DNS_LABEL.source,
      description:
        "The team that owns it (label beekeeper.io/team): it then receives that team's warnings only. Default: your " +
        'one team where you are admin; a platform admin may name any team, or none (every warning). On a replace, ' +
        'only a platform admin may change it.',
    }),
  ),
});

export const WebhookEndpointStatusSchema = Type.Object({
  lastDelivery: Type.Optional(
    Type.Partial(
      Type.Object({ at: Type.String(), ok: Type.Boolean(), statusCode: Type.Integer(), message: Type.String() }),
    ),
  ),
});

/** The API's view of an endpoint (/v1/webhooks): never its URL in full, never its key. */
export const WebhookViewSchema = Type.Object(
  {
    name: Type.String(),
    team: Type.Optional(Type.String({ description: "The owning team: receives its team's warnings only" })),
    url: Type.String({
      description: 'Redacted: userinfo, query and the path past its leading segments masked',
      examples: ['https://hooks.slack.com/services/T000/***'],
    }),
    format: Type.Union([Type.Literal('generic'), Type.Literal('slack')]),
    signed: Type.Boolean(),
    disabled: Type.Boolean(),
    lastDelivery: WebhookEndpointStatusSchema.properties.lastDelivery,
  },
  { title: 'WebhookEndpoint' },
);

export type WebhookEndpointSpec = Static<typeof WebhookEndpointSpecSchema>;
export type WebhookView = Static<typeof WebhookViewSchema>;
export type WebhookEndpointStatus = Static<typeof WebhookEndpointStatusSchema>;
export type WebhookRequest = Static<typeof WebhookRequestSchema>;

export const webhookEndpointCrd: CrdDefinition = {
  kind: 'WebhookEndpoint',
  plural: 'webhookendpoints',
  shortNames: ['whe'],
  comment: [
    'WebhookEndpoint: where expiry warnings go. Generic JSON is signed the Standard Webhooks way with the key in the',
    'referenced Secret (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>);',
    'slack sends a Slack-compatible payload.',
    'A webhook URL is usually a credential (userinfo, or a token in the path as with Slack), so it belongs in a',
    'Secret referenced by urlSecretRef; spec.url then only shows its redacted form. A plain spec.url without',
    'urlSecretRef is posted to as is: use it only for URLs that carry no credential.',
  ].join('\n'),
  printerColumns: [
    { name: 'URL', type: 'string', jsonPath: '.spec.url', description: 'Redacted when urlSecretRef is set' },
    {
      name: 'Team',
      type: 'string',
      jsonPath: '.metadata.labels.beekeeper\\.io/team',
      description: 'Owning team; none: platform-wide',
    },
    { name: 'Format', type: 'string', jsonPath: '.spec.format' },
    { name: 'LastDelivery', type: 'string', jsonPath: '.status.lastDelivery.at' },
    { name: 'OK', type: 'boolean', jsonPath: '.status.lastDelivery.ok' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: WebhookEndpointSpecSchema,
  status: WebhookEndpointStatusSchema,
};
