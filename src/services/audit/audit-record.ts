// One audit record per API request that changes something or reads a secret (docs/audit.md): who asked, for which
// team, what, on which object, how it ended, and why if the request said. Identifiers only: never a body, a token
// or a secret. The same record is a log line and an Event (its JSON in an annotation), so GET /v1/audit reads
// back exactly what the log stream holds.
import type { KindName } from '../ports.js';

export type AuditOutcome = 'allowed' | 'refused' | 'failed';

export interface AuditActor {
  /** request.caller.name: a token's name, an OIDC user, a ServiceAccount. */
  name: string;
  /** How the caller signed in: token, oidc, serviceaccount, open. */
  via: string;
  /** The caller's role in the object's team when the request came (platform admins: admin). */
  role?: string;
  /** `by` from the request body: the person a portal acts for (the caller is still who is accountable). */
  onBehalfOf?: string;
}

export interface AuditObject {
  kind?: KindName;
  hub?: string;
  namespace?: string;
  name?: string;
}

export interface AuditRecord {
  /** Unique per record; with `time`, the order of the trail. */
  id: string;
  /** ISO 8601, when the answer was sent. */
  time: string;
  /** X-Request-Id of the request (Fastify's request id). */
  requestId: string;
  actor: AuditActor;
  /** The team owning the object (src/auth/team-directory.ts); absent: no team's, visible to platform admins only. */
  team?: string;
  /** The route's operationId (src/http/operation-ids.ts), e.g. `hibernateCluster`. */
  action: string;
  /** `POST /v1/clusters/:hub/:namespace/:name/hibernate`. */
  route: string;
  object: AuditObject;
  result: { status: number; outcome: AuditOutcome };
  /** `reason` from the request body, when it gave one. */
  reason?: string;
}

/** Events carrying an audit record have this label (`beekeeper.io/audit=true`). */
export const AUDIT_LABEL = 'beekeeper.io/audit';
export const AUDIT_SELECTOR = `${AUDIT_LABEL}=true`;
/** The record as JSON, on its Event. */
export const AUDIT_ANNOTATION = 'beekeeper.io/audit-record';

export function outcomeOf(status: number): AuditOutcome {
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  return 'allowed';
}

/** `hub/namespace/name`, as much of it as is known. */
export function objectId(o: AuditObject): string {
  return [o.hub, o.namespace, o.name].filter((p) => p !== undefined).join('/') || '(none)';
}

/** The Event's reason: `Audit` + the action in UpperCamelCase (`AuditHibernateCluster`). */
export const auditReason = (action: string): string => `Audit${action.charAt(0).toUpperCase()}${action.slice(1)}`;

/** The Event's message, in words: `alice (token, team payments) hibernateCluster east/team-a/c1: allowed (202)`. */
export function auditMessage(r: AuditRecord): string {
  const team = r.team ? `, team ${r.team}` : '';
  const behalf = r.actor.onBehalfOf ? ` for ${r.actor.onBehalfOf}` : '';
  const kind = r.object.kind ? `${r.object.kind} ` : '';
  const why = r.reason ? `; reason: ${r.reason}` : '';
  return (
    `${r.actor.name} (${r.actor.via}${team})${behalf} ${r.action} ${kind}${objectId(r.object)}: ` +
    `${r.result.outcome} (${r.result.status}), request ${r.requestId}${why}`
  );
}

/** The record back from its Event's annotation; undefined for one edited into another shape. */
export function recordOfEvent(annotations: Record<string, string> | undefined): AuditRecord | undefined {
  const json = annotations?.[AUDIT_ANNOTATION];
  if (!json) return undefined;
  try {
    const r = JSON.parse(json) as AuditRecord;
    return typeof r.id === 'string' && typeof r.time === 'string' && typeof r.action === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}
