// Request and response schemas of /v1/pools and /v1/claims. Views allow extra properties so an added field
// reaches clients before the schema learns it; requests refuse unknown fields.
import { Type } from 'typebox';
import { AuditFields } from '../audit.js';
import { ExpiryHistoryEntrySchema } from '../schemas.js';
import { ObjectRefParams } from './name-params.js';

const Duration = (description: string) =>
  Type.String({ minLength: 1, maxLength: 32, description, examples: ['2h', '90m'] });
const Name = Type.String({ minLength: 1, maxLength: 253 });
const Labels = Type.Record(Type.String(), Type.String());

export const RefParams = ObjectRefParams;

export const SelectorSchema = Type.Object(
  {
    hub: Type.Optional(Name),
    platform: Type.Optional(Type.String({ examples: ['aws'] })),
    region: Type.Optional(Type.String({ examples: ['us-east-1'] })),
    version: Type.Optional(
      Type.String({
        description: "OpenShift version of the pool's ClusterImageSet; `4.14` matches any 4.14.z",
        examples: ['4.14'],
      }),
    ),
    architecture: Type.Optional(Type.String({ examples: ['x86_64', 'arm64'] })),
    owner: Type.Optional(Type.String({ description: 'Pool label beekeeper.io/owner' })),
    team: Type.Optional(Type.String({ description: 'Pool label beekeeper.io/team' })),
    labels: Type.Optional(Labels),
  },
  { additionalProperties: false, description: 'Attributes to pick a pool by, across pools and hubs' },
);

export const ClaimCreateSchema = Type.Object(
  {
    pool: Type.Optional(
      Type.String({
        description: '`hub/namespace/name`, or `namespace/name` / `name` when unique',
        examples: ['local/pools/aws-small'],
      }),
    ),
    selector: Type.Optional(SelectorSchema),
    name: Type.Optional(Type.String({ maxLength: 63 })),
    lifetime: Type.Optional(
      Duration('Counted from when Hive hands over the cluster; default and maximum come from the pool and policy'),
    ),
    subjects: Type.Optional(
      Type.Array(
        Type.Object(
          {
            kind: Type.Union([Type.Literal('User'), Type.Literal('Group'), Type.Literal('ServiceAccount')]),
            name: Type.String({ minLength: 1 }),
            namespace: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    heartbeatTimeout: Type.Optional(
      Duration('Release the claim when no heartbeat arrives for this long (at least 1m)'),
    ),
  },
  { additionalProperties: false },
);

export const ClaimExtendSchema = Type.Object(
  {
    extendBy: Type.Optional(Duration('Time to add to the lifetime')),
    lifetime: Type.Optional(Duration('Or the new total lifetime')),
    ...AuditFields,
  },
  { additionalProperties: false },
);

export const HeartbeatSchema = Type.Union([
  Type.Object({ holder: Type.Optional(Type.String({ maxLength: 128 })) }, { additionalProperties: false }),
  Type.Null(),
]);

export const ClaimWaitQuery = Type.Object({
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3600,
      description: 'Seconds to wait for the claim to be running (or to end) before answering',
    }),
  ),
});

export const ClaimViewSchema = Type.Object(
  {
    id: Type.String(),
    hub: Type.String(),
    namespace: Type.String(),
    name: Type.String(),
    pool: Type.String(),
    phase: Type.String({ examples: ['Pending', 'Starting', 'Running', 'Hibernating', 'Releasing', 'ClusterLost'] }),
    reason: Type.String({
      examples: ['ClustersInstalling', 'ClusterResuming', 'QueuedBehind', 'AtCapacity', 'Running'],
    }),
    message: Type.String({
      description: 'Where the claim stands and why, in plain words (says "no estimate yet" when there is no eta)',
    }),
    queue: Type.Optional(Type.Object({ position: Type.Integer(), ahead: Type.Integer() })),
    step: Type.Optional(
      Type.Object(
        { state: Type.String(), step: Type.Optional(Type.String()), words: Type.String(), cluster: Type.String() },
        {
          description:
            'Where the cluster this claim gets is: its install stage (e.g. Provisioning) or power step (e.g. WaitingForNodes, step 2/4)',
        },
      ),
    ),
    eta: Type.Optional(
      Type.Object(
        { seconds: Type.Integer(), basis: Type.String() },
        { description: "Time to ready, from the pool's install and resume history" },
      ),
    ),
    lifetime: Type.Optional(
      Type.Object({
        lifetime: Type.String(),
        claimedAt: Type.Optional(Type.String()),
        expiresAt: Type.Optional(Type.String()),
      }),
    ),
    cluster: Type.Optional(
      Type.Object({
        id: Type.String(),
        apiURL: Type.Optional(Type.String()),
        webConsoleURL: Type.Optional(Type.String()),
        powerState: Type.Optional(Type.String()),
      }),
    ),
    pickedBecause: Type.Optional(Type.String()),
    lifetimeHistory: Type.Array(ExpiryHistoryEntrySchema, {
      description: 'Every change of the lifetime: who, from what to what, why, through which route',
    }),
  },
  { additionalProperties: true, title: 'Claim' },
);

const PlatformSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('aws'), Type.Literal('gcp'), Type.Literal('azure')]),
    region: Type.String({ minLength: 1 }),
    credentialsSecretRef: Type.String({ minLength: 1 }),
    gcpProjectID: Type.Optional(Type.String()),
    azureBaseDomainResourceGroupName: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const MachineSchema = Type.Object(
  { replicas: Type.Optional(Type.Integer({ minimum: 0 })), instanceType: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const settings = {
  size: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  runningCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  maxSize: Type.Optional(Type.Integer({ minimum: 1 })),
  maxConcurrent: Type.Optional(Type.Integer({ minimum: 1 })),
  hibernateAfter: Type.Optional(Duration('Hibernate claimed clusters after this long running')),
  claimLifetime: Type.Optional(
    Type.Object(
      { default: Type.Optional(Duration('')), maximum: Type.Optional(Duration('')) },
      { additionalProperties: false },
    ),
  ),
  labels: Type.Optional(Labels),
  clusterLabels: Type.Optional(Labels),
};

export const PoolCreateSchema = Type.Object(
  {
    hub: Name,
    namespace: Name,
    name: Type.String({ minLength: 1, maxLength: 63 }),
    platform: PlatformSchema,
    baseDomain: Type.String({ minLength: 1 }),
    imageSetName: Name,
    pullSecretRef: Type.Optional(Name),
    installConfigSecretTemplateRef: Type.Optional(Name),
    installConfig: Type.Optional(
      Type.Object(
        {
          controlPlane: Type.Optional(MachineSchema),
          compute: Type.Optional(MachineSchema),
          sshKey: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    resumeTimeout: Type.Optional(Duration('Replace an unclaimed cluster that takes longer than this to resume')),
    skipMachinePools: Type.Optional(Type.Boolean()),
    ...settings,
  },
  { additionalProperties: false },
);

// Removing a cap is an explicit `unset` list rather than `null`: Fastify coerces types, and with a nullable
// integer a 0 or a null can silently turn into the other.
export const PoolPatchSchema = Type.Object(
  {
    ...settings,
    unset: Type.Optional(
      Type.Array(
        Type.Union(['maxSize', 'maxConcurrent', 'hibernateAfter', 'claimLifetime'].map((f) => Type.Literal(f))),
        {
          uniqueItems: true,
          description: 'Optional settings to remove (no cap, no hibernateAfter, no claimLifetime)',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PoolViewSchema = Type.Object(
  {
    id: Type.String(),
    hub: Type.String(),
    namespace: Type.String(),
    name: Type.String(),
    size: Type.Integer(),
    counts: Type.Object({ size: Type.Integer(), standby: Type.Integer(), ready: Type.Integer() }),
    problems: Type.Array(
      Type.Object({ type: Type.String(), reason: Type.Optional(Type.String()), message: Type.String() }),
    ),
    claimsWaiting: Type.Integer(),
    clusters: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String(),
            state: Type.String(),
            powerState: Type.Optional(Type.String()),
            claim: Type.Optional(Type.String()),
            createdAt: Type.Optional(Type.String()),
          },
          { additionalProperties: true },
        ),
        { description: 'Every cluster of the pool; on GET of one pool, not on list items (see clustersByState)' },
      ),
    ),
  },
  { additionalProperties: true, title: 'Pool' },
);
