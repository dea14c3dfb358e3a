import type { Clock } from '../../clock.js';
import type { AdmissionHook, AdmissionRequest } from './admission.js';
import type { Faults } from './faults.js';
import type { Registry } from './registry.js';
import type { Store } from './store.js';
import type { Identity, ResourceType } from './types.js';
import { ApiError } from './status.js';
import type { ServiceAccountTokens } from './sa-tokens.js';

/** Everything a handler needs, built once per server. */
export interface ServerContext {
  store: Store;
  registry: Registry;
  clock: Clock;
  faults: Faults;
  /** Served as Prometheus text at GET /_sim/metrics (the simulated controllers' counters). */
  metrics?: { render(): string };
  admission: AdmissionHook[];
  /** Bearer tokens and who they authenticate (the static ones, plus those issued by TokenRequest). */
  tokens: Map<string, Identity>;
  /** ServiceAccount tokens: issued by TokenRequest, checked by every request and by TokenReview. */
  saTokens: ServiceAccountTokens;
  /** The requests RBAC refused, newest last (at most REFUSALS_KEPT): what a least-privilege test asserts on. */
  refusals: Refusal[];
  /** Per user, the `verb group/resource[/subresource]` RBAC allowed (not for system:masters). */
  allowed: Map<string, Set<string>>;
  /** The APF-like limit (`maxInFlight` option): beyond `limit` requests in flight, 429. Absent: no limit. */
  inFlight?: { limit: number; current: number };
  /** Called after a CustomResourceDefinition is stored or removed, to (un)serve its kinds. */
  crdChanged(crd: any, removed: boolean): void;
}

/** A request RBAC refused: who, and the Forbidden message's "cannot ..." text. */
export interface Refusal {
  user: string;
  message: string;
}

export const REFUSALS_KEPT = 1000;

/** One API request, resolved to its resource. */
export interface ApiRequest {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  query: URLSearchParams;
  who: Identity;
  userAgent?: string;
  contentType?: string;
  body: string;
  dryRun: boolean;
  /** Set by handlers: Warning headers for the response. */
  warnings: string[];
}

export interface ApiResponse {
  code: number;
  body: string | Buffer | Record<string, unknown>;
  headers?: Record<string, string>;
}

export const q = (t: ResourceType) => ({ group: t.group, resource: t.resource, kind: t.kind });

/**
 * The manager recorded in managedFields: ?fieldManager, else the User-Agent up to its first "/" (golden 06: "curl"),
 * printable characters only, at most 128 bytes; empty without a User-Agent (handlers/rest.go prefixFromUserAgent).
 */
export function managerOf(req: ApiRequest): string {
  const explicit = req.query.get('fieldManager');
  if (explicit) return explicit;
  let out = '';
  for (const ch of (req.userAgent ?? '').split('/')[0]!) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > 128) break;
    out += ch;
  }
  return out;
}

export async function runAdmission(
  ctx: ServerContext,
  req: ApiRequest,
  operation: AdmissionRequest['operation'],
  name: string,
  object: any,
  oldObject: any,
): Promise<void> {
  for (const hook of ctx.admission) {
    const result = await hook({
      operation,
      group: req.type.group,
      version: req.type.version,
      resource: req.type.resource,
      kind: req.type.kind,
      subresource: req.subresource,
      namespace: req.namespace,
      name,
      object,
      oldObject,
      dryRun: req.dryRun,
      user: { username: req.who.username, groups: req.who.groups },
    });
    if (!result.allowed) {
      const status = result.status as Record<string, unknown>;
      throw new ApiError(Number(status.code) || 400, status);
    }
  }
}
