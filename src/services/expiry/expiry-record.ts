// One recorder for every expiry change, by any route or policy: a cluster's expiry set, shortened, cleared or
// extended, a policy's default or cap, the expiry a cluster is created with, a claim's lifetime extended. Each
// leaves the same three traces: the history entry (written with the change itself, see cluster-expiry-write.ts),
// a structured audit log line (`audit: "expiry"`) and a Kubernetes Event on the object.
import { ANNOTATIONS } from '../../hive/constants.js';
import { invalid } from '../../hive/errors.js';
import type { ExpiryAction, ExpiryHistoryEntry } from '../../hive/expiry/history.js';
import type { HiveStore, ObjectRef, ServiceLog } from '../ports.js';

/** Where a change comes from: the API token's holder (none for Beekeeper's own timers) and the route or timer. */
export interface AuditOrigin {
  principal?: string;
  /** `PUT /v1/clusters/:hub/:namespace/:name/expiry`, `scheduler`... */
  via: string;
}

export interface ExpiryActor {
  by: string;
  reason?: string;
  via: string;
  principal?: string;
}

/** Beekeeper's expiry timers enforcing the policies. */
export const SCHEDULER: AuditOrigin = { via: 'scheduler' };

/** The actor of a request: `by` as the caller names it (a portal acting for a person), else the token's holder. */
export function requestActor(origin: AuditOrigin, req: { by?: string; reason?: string }): ExpiryActor {
  if (req.by !== undefined && req.by.trim() === '')
    throw invalid('by', "say who makes the change (it is recorded), or leave it out for the API token's holder");
  if (req.reason !== undefined && req.reason.trim() === '')
    throw invalid('reason', 'say why (it is recorded), or leave it out');
  const holder = origin.principal ?? 'anonymous';
  const by = req.by ?? holder;
  return {
    by,
    ...(req.reason !== undefined ? { reason: req.reason } : {}),
    via: origin.via,
    ...(by !== holder && origin.principal !== undefined ? { principal: holder } : {}),
  };
}

type Expiring = 'ClusterDeployment' | 'ClusterClaim';

/** `from` and `to` as recorded: ISO times for a cluster's expiry, Go durations for a claim's lifetime. */
export function expiryEntry(
  nowMs: number,
  actor: ExpiryActor,
  action: ExpiryAction,
  from: string | undefined,
  to: string | undefined,
): ExpiryHistoryEntry {
  return {
    at: new Date(nowMs).toISOString(),
    action,
    by: actor.by,
    ...(actor.reason !== undefined ? { reason: actor.reason } : {}),
    via: actor.via,
    ...(actor.principal !== undefined ? { principal: actor.principal } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
}

const REASONS: Record<Expiring, Record<ExpiryAction, string>> = {
  ClusterDeployment: {
    set: 'ExpirySet',
    extend: 'ExpiryExtended',
    shorten: 'ExpiryShortened',
    clear: 'ExpiryCleared',
    default: 'ExpirySet',
    cap: 'ExpiryCapped',
  },
  ClusterClaim: {
    set: 'LifetimeSet',
    extend: 'LifetimeExtended',
    shorten: 'LifetimeShortened',
    clear: 'LifetimeCleared',
    default: 'LifetimeSet',
    cap: 'LifetimeCapped',
  },
};

/**
 * The log line and the Event for a change already written with its history entry. The Event is keyed by the entry,
 * so announcing the same change again (a job run again) adds no second one. `deleteAfter`: the value written.
 */
export async function announceExpiryChange(
  deps: { store: HiveStore; log: Pick<ServiceLog, 'info'> },
  kind: Expiring,
  ref: ObjectRef,
  entry: ExpiryHistoryEntry,
  deleteAfter?: string | null,
): Promise<void> {
  const what = kind === 'ClusterClaim' ? 'lifetime' : 'expiry';
  deps.log.info(
    {
      audit: 'expiry',
      kind,
      hub: ref.hub,
      namespace: ref.namespace,
      name: ref.name,
      ...entry,
      ...(deleteAfter !== undefined ? { deleteAfter } : {}),
    },
    `${what} ${entry.action}`,
  );
  const written =
    deleteAfter === undefined
      ? ''
      : deleteAfter === null
        ? ` (${ANNOTATIONS.deleteAfter} removed)`
        : ` (${ANNOTATIONS.deleteAfter}=${deleteAfter})`;
  const who = `${entry.by}${entry.principal ? ` (API token ${entry.principal})` : ''}`;
  await deps.store.recordEvent(kind, ref, {
    type: 'Normal',
    reason: REASONS[kind][entry.action],
    action: kind === 'ClusterClaim' ? 'Extend' : 'SetExpiry',
    message:
      `${what === 'expiry' ? 'Expiry' : 'Lifetime'} ${entry.from ?? 'none'} -> ` +
      `${entry.to ?? 'none'}${written} by ${who} via ${entry.via}: ` +
      `${entry.reason ?? 'no reason given'}`,
    key: `${what}/${entry.at}/${entry.action}/${entry.to ?? 'none'}`,
  });
}
