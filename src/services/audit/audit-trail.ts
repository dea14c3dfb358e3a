// Writes each audit record to its two sinks: one log line at once (`audit: true`, at info on a logger that a raised
// log level does not silence) and a Kubernetes Event, off the request's path. The Event goes through the hub's
// rate limiter as background work, so people's requests go first; a write that fails (after the gateway's own
// retries) or that finds too many writes waiting is logged, never dropped in silence: the log line is the record
// that lasts (Events expire with the API server's event TTL, one hour by default).
import { runAs } from '../../work-class.js';
import type { HiveStore, KindName, ObjectRef, ServiceLog, StateLocation } from '../ports.js';
import {
  AUDIT_ANNOTATION,
  AUDIT_LABEL,
  auditMessage,
  auditReason,
  objectId,
  type AuditRecord,
} from './audit-record.js';

export interface AuditTrail {
  /**
   * Log the record now and write its Event in the background: on the object when `onObject` (it exists, or did
   * when the request came), else in the state namespace (a refused create, a 404, a request with no object).
   */
  write(record: AuditRecord, opts: { onObject: boolean }): void;
  /**
   * Resolves once every Event written so far has landed or failed (tests), or after `timeoutMs` (shutdown: a
   * backlog behind the hub's rate limit must not hold the process; what is left is logged, its records are the
   * log lines already written).
   */
  settled(timeoutMs?: number): Promise<void>;
}

export interface AuditTrailDeps extends StateLocation {
  store: Pick<HiveStore, 'recordEvent'>;
  log: ServiceLog;
  /** Event writes waiting at once before new ones are dropped (and logged as dropped). */
  maxPending?: number;
}

/** Beekeeper's own kinds live on the state hub, in the state namespace. */
const STATE_KINDS = new Set<KindName>(['HibernationSchedule', 'ExpiryPolicy', 'WebhookEndpoint', 'Relocation']);

export function createAuditTrail(deps: AuditTrailDeps): AuditTrail {
  const maxPending = deps.maxPending ?? 1000;
  const pending = new Set<Promise<void>>();

  const target = (record: AuditRecord, onObject: boolean): { kind: KindName; ref: ObjectRef; namespace?: string } => {
    const o = record.object;
    if (onObject && o.kind && o.name) {
      if (STATE_KINDS.has(o.kind))
        return { kind: o.kind, ref: { hub: deps.stateHub, namespace: deps.stateNamespace, name: o.name } };
      if (o.hub && o.namespace) return { kind: o.kind, ref: { hub: o.hub, namespace: o.namespace, name: o.name } };
    }
    // The state namespace itself is the involved object, and the Event is stored in it (not in `default`).
    return {
      kind: 'Namespace',
      ref: { hub: deps.stateHub, name: deps.stateNamespace },
      namespace: deps.stateNamespace,
    };
  };

  return {
    write(record, { onObject }) {
      deps.log.info({ audit: true, ...record }, `audit ${record.action} ${record.result.outcome}`);
      const line = {
        auditId: record.id,
        requestId: record.requestId,
        action: record.action,
        object: objectId(record.object),
      };
      if (pending.size >= maxPending) {
        deps.log.error(line, 'audit Event dropped: too many Event writes waiting (the log line above is the record)');
        return;
      }
      const { kind, ref, namespace } = target(record, onObject);
      const write = runAs('background', () =>
        deps.store.recordEvent(kind, ref, {
          type: record.result.outcome === 'allowed' ? 'Normal' : 'Warning',
          reason: auditReason(record.action),
          action: record.action,
          message: auditMessage(record),
          labels: { [AUDIT_LABEL]: 'true' },
          annotations: { [AUDIT_ANNOTATION]: JSON.stringify(record) },
          ...(namespace ? { namespace } : {}),
        }),
      )
        // recordEvent logs its own failures and never throws; this catches only what would be a bug.
        .catch((err: unknown) => deps.log.error({ ...line, err: (err as Error).message }, 'audit Event not written'))
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    async settled(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const deadline =
        timeoutMs === undefined
          ? undefined
          : new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), timeoutMs)));
      try {
        while (pending.size > 0) {
          const all = Promise.allSettled([...pending]);
          if ((await (deadline ? Promise.race([all, deadline]) : all)) === 'late') {
            deps.log.error(
              { waiting: pending.size },
              'audit Events still waiting at shutdown may not be written (their log lines are the records)',
            );
            return;
          }
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
