// The response schema of /v1/hubs: a hub's reachability, its informers' health and its credentials' state. Views
// allow extra properties so a field added to the status reaches clients before the schema learns it.
import { Type } from 'typebox';

const open = { additionalProperties: true } as const;

const InformerHealth = Type.Object({ synced: Type.Boolean(), lastError: Type.Optional(Type.String()) }, open);

export const HubStatusSchema = Type.Object(
  {
    name: Type.String(),
    reachable: Type.Boolean(),
    hiveCrdsPresent: Type.Boolean(),
    message: Type.Optional(Type.String({ description: 'Why it is unreachable or incomplete now' })),
    since: Type.String({
      format: 'date-time',
      description:
        'When this replica first saw the hub as reachable or unreachable as it is now (its start, if never otherwise)',
    }),
    checkedAt: Type.String({ format: 'date-time', description: 'When the hub was last probed (every 15 s)' }),
    lastError: Type.Optional(
      Type.String({ description: 'The most recent reason it was unreachable, kept after it recovers' }),
    ),
    lastErrorAt: Type.Optional(Type.String({ format: 'date-time' })),
    counts: Type.Record(Type.String(), Type.Integer(), { description: 'Objects in the informer cache per kind' }),
    informers: Type.Record(Type.String(), InformerHealth, { description: 'Informer health per kind' }),
    credentialsLoadedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          "When the hub's credentials in use were loaded; they are reloaded when their kubeconfig (or in-cluster token) changes",
      }),
    ),
    credentialsProblem: Type.Optional(
      Type.String({
        description:
          'Why the changed kubeconfig is not in use (the last good credentials are); absent when the file in place loaded',
      }),
    ),
  },
  { ...open, title: 'HubStatus' },
);
