// Request and response schemas of /v1/clusters (the hubs' view: hub-schemas.ts). Requests refuse unknown fields; views allow extra
// properties so a field added to the summary reaches clients before the schema learns it.
import { Type } from 'typebox';
import { AuditFields } from '../audit.js';
import { ObjectRefParams } from './name-params.js';

const Name = Type.String({ minLength: 1, maxLength: 253 });
const Labels = Type.Record(Type.String(), Type.String());
const Duration = (description: string) =>
  Type.String({ minLength: 1, maxLength: 32, description, examples: ['8h', '90m'] });
const open = { additionalProperties: true } as const;
const closed = { additionalProperties: false } as const;

export const ClusterParams = ObjectRefParams;

const MachinePool = Type.Object(
  {
    replicas: Type.Optional(Type.Integer({ minimum: 0 })),
    instanceType: Type.Optional(Type.String({ minLength: 1, examples: ['m6i.xlarge'] })),
  },
  closed,
);
const SecretRef = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'Name of an existing Secret in the cluster namespace',
});

export const ClusterCreateSchema = Type.Object(
  {
    hub: Name,
    namespace: Type.String({ minLength: 1, maxLength: 63 }),
    name: Type.String({ minLength: 1, maxLength: 63, description: 'Also the clusterName used in DNS' }),
    createNamespace: Type.Optional(Type.Boolean({ description: 'Create the namespace when it does not exist' })),
    baseDomain: Type.String({ minLength: 1, examples: ['example.com'] }),
    platform: Type.Object(
      {
        aws: Type.Optional(
          Type.Object(
            {
              region: Type.String({ examples: ['us-east-1'] }),
              credentialsSecretRef: Type.Optional(SecretRef),
              credentials: Type.Optional(
                Type.Object(
                  { accessKeyID: Type.String(), secretAccessKey: Type.String() },
                  {
                    ...closed,
                    description: 'Written to `<name>-aws-creds` during the request; never queued or logged',
                  },
                ),
              ),
              userTags: Type.Optional(Labels),
            },
            closed,
          ),
        ),
        gcp: Type.Optional(
          Type.Object(
            {
              region: Type.String(),
              projectID: Type.String(),
              credentialsSecretRef: Type.Optional(SecretRef),
              credentials: Type.Optional(Type.Object({ serviceAccountJSON: Type.String() }, closed)),
            },
            closed,
          ),
        ),
        azure: Type.Optional(
          Type.Object(
            {
              region: Type.String(),
              baseDomainResourceGroupName: Type.String(),
              cloudName: Type.Optional(
                Type.Union([
                  Type.Literal('AzurePublicCloud'),
                  Type.Literal('AzureUSGovernmentCloud'),
                  Type.Literal('AzureChinaCloud'),
                  Type.Literal('AzureGermanCloud'),
                ]),
              ),
              credentialsSecretRef: Type.Optional(SecretRef),
              credentials: Type.Optional(Type.Object({ servicePrincipalJSON: Type.String() }, closed)),
            },
            closed,
          ),
        ),
        none: Type.Optional(
          Type.Object({}, { ...closed, description: 'No cloud: Hive cannot hibernate it (reports Unsupported)' }),
        ),
      },
      { ...closed, description: 'Exactly one platform' },
    ),
    imageSet: Type.Optional(
      Type.String({
        maxLength: 253,
        description: 'ClusterImageSet name; exactly one of imageSet and releaseImage',
        examples: ['openshift-v4.16.0'],
      }),
    ),
    releaseImage: Type.Optional(Type.String({ examples: ['quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64'] })),
    pullSecretRef: Type.Optional(SecretRef),
    pullSecret: Type.Optional(
      Type.String({
        description:
          'Inline .dockerconfigjson; written to `<name>-pull-secret` during the request, never queued or logged',
      }),
    ),
    controlPlane: Type.Optional(MachinePool),
    compute: Type.Optional(MachinePool),
    networking: Type.Optional(
      Type.Object(
        {
          clusterNetwork: Type.Optional(
            Type.Array(Type.Object({ cidr: Type.String(), hostPrefix: Type.Integer() }, closed), { minItems: 1 }),
          ),
          machineNetwork: Type.Optional(Type.Array(Type.Object({ cidr: Type.String() }, closed), { minItems: 1 })),
          serviceNetwork: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
          networkType: Type.Optional(Type.String({ examples: ['OVNKubernetes'] })),
        },
        closed,
      ),
    ),
    sshKey: Type.Optional(Type.String({ description: 'OpenSSH public key for the nodes' })),
    labels: Type.Optional(Labels),
    annotations: Type.Optional(Labels),
    powerState: Type.Optional(Type.Union([Type.Literal('Running'), Type.Literal('Hibernating')])),
    hibernateAfter: Type.Optional(
      Duration('Hive hibernates the cluster this long after it became ready (Go duration, no `d`)'),
    ),
    expiresIn: Type.Optional(
      Duration('Hive deletes the cluster this long after creation (hive.openshift.io/delete-after)'),
    ),
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'Absolute expiry; converted to delete-after' }),
    ),
    installAttemptsLimit: Type.Optional(Type.Integer({ minimum: 1 })),
    preserveOnDelete: Type.Optional(
      Type.Boolean({ description: 'Hive keeps the cloud resources when the cluster is deleted' }),
    ),
  },
  { ...closed, title: 'ClusterCreate' },
);

const ConditionView = Type.Object(
  {
    type: Type.String(),
    status: Type.String(),
    reason: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    since: Type.Optional(Type.String()),
    problem: Type.Boolean({
      description:
        "This condition reports a problem: Hive's polarity, and for Hibernating, Ready, Provisioned and Unreachable the reason and power state",
    }),
    summary: Type.String({ description: 'The condition in plain words' }),
  },
  open,
);

export const ClusterSummarySchema = Type.Object(
  {
    hub: Type.String(),
    namespace: Type.String(),
    name: Type.String(),
    uid: Type.Optional(Type.String()),
    createdAt: Type.Optional(Type.String()),
    phase: Type.String({
      description:
        'Provisioning, ProvisionFailed, ProvisionStopped, Installed, Running, Hibernating, ' +
        'Stopping, Resuming, Unsupported, Deprovisioning, DeprovisionFailed, Relocating or Unknown',
    }),
    phaseReason: Type.Optional(
      Type.String({ description: "Hive's condition reason or status.powerState behind the phase" }),
    ),
    phaseMessage: Type.String(),
    step: Type.Optional(
      Type.Object(
        { index: Type.Integer(), of: Type.Integer(), state: Type.String() },
        { ...open, description: 'Resume progress ("step n/4")' },
      ),
    ),
    installed: Type.Boolean(),
    powerState: Type.Object(
      { desired: Type.String(), observed: Type.Optional(Type.String({ description: 'status.powerState' })) },
      open,
    ),
    hibernateAfter: Type.Optional(Type.String()),
    apiURL: Type.Optional(Type.String()),
    webConsoleURL: Type.Optional(
      Type.String({ description: "Hive's status.webConsoleURL (the same name as on claims)" }),
    ),
    consoleURL: Type.Optional(
      Type.String({
        deprecated: true,
        description: 'Deprecated alias of webConsoleURL, kept for 0.1 clients; removed in 0.2',
      }),
    ),
    version: Type.Optional(Type.String()),
    platform: Type.Optional(Type.String()),
    region: Type.Optional(Type.String()),
    baseDomain: Type.String(),
    pool: Type.Optional(Type.Object({ namespace: Type.String(), name: Type.String() }, open)),
    claim: Type.Optional(Type.Object({ name: Type.String(), claimedAt: Type.Optional(Type.String()) }, open)),
    expiry: Type.Optional(Type.Object({ deleteAfter: Type.String(), expiresAt: Type.Optional(Type.String()) }, open)),
    protected: Type.Boolean({ description: 'hive.openshift.io/protected-delete is truthy' }),
    labels: Labels,
    problems: Type.Array(
      Type.Object({ type: Type.String(), reason: Type.Optional(Type.String()), message: Type.String() }, open),
      {
        description: 'The conditions that report a problem, in plain words; empty when all is well',
      },
    ),
    conditions: Type.Optional(
      Type.Array(ConditionView, { description: 'Every condition; on GET of one cluster, not on list items' }),
    ),
    raw: Type.Optional(Type.Unknown({ description: 'The ClusterDeployment as stored (with ?raw=true)' })),
  },
  { ...open, title: 'ClusterSummary' },
);

export const ClusterListQuery = Type.Object(
  {
    hub: Type.Optional(Name),
    namespace: Type.Optional(Name),
    labelSelector: Type.Optional(Type.String({ examples: ['team=payments,env in (dev,ci)'] })),
    powerState: Type.Optional(
      Type.String({ description: 'status.powerState (e.g. Hibernating, WaitingForNodes) or a phase (e.g. Resuming)' }),
    ),
    pool: Type.Optional(Type.String({ description: '`name` or `namespace/name` of a ClusterPool' })),
    claimed: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
  },
  closed,
);

export const ClusterPageSchema = Type.Object({
  items: Type.Array(ClusterSummarySchema),
  nextCursor: Type.Optional(Type.String()),
  total: Type.Integer({ description: 'Matches across all pages' }),
});

export const ExpiryBody = Type.Object(
  {
    expiresAt: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'Absolute time, or null to clear',
      }),
    ),
    expiresIn: Type.Optional(Duration('From now (Go duration, no `d`)')),
    ...AuditFields,
  },
  { ...closed, description: 'Exactly one of expiresAt and expiresIn' },
);

export const ExpiryResultSchema = Type.Object({ cluster: ClusterSummarySchema, warnings: Type.Array(Type.String()) });

export const CredentialsSchema = Type.Object(
  {
    username: Type.String(),
    password: Type.String(),
    apiURL: Type.Optional(Type.String()),
    webConsoleURL: Type.Optional(Type.String()),
    consoleURL: Type.Optional(
      Type.String({ deprecated: true, description: 'Deprecated alias of webConsoleURL; removed in 0.2' }),
    ),
  },
  open,
);
