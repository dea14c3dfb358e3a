// The one owner of audit records (docs/audit.md): every request under /v1 that changes something (POST, PUT, PATCH,
// DELETE) or reads a secret (GET .../kubeconfig, .../credentials) makes exactly one record when its answer is sent,
// whoever refused it (sign-in, validation, authorization, the service) and however it ended. Services do not audit
// requests themselves. The object and its team are taken before the handler runs (a deleted object is gone
// afterwards); a create's object comes from its answer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { roleIn, type Caller } from '../auth/caller.js';
import type { TeamDirectory } from '../auth/team-directory.js';
import type { Clock } from '../clock.js';
import type { ClusterClaim } from '../hive/pools/types.js';
import type { ClusterDeployment } from '../hive/types.js';
import { outcomeOf, type AuditObject, type AuditRecord } from '../services/audit/audit-record.js';
import type { AuditTrail } from '../services/audit/audit-trail.js';
import type { CachedKind, HiveStore, KindName, KubeObject, StateLocation } from '../services/ports.js';
import { OPERATION_IDS } from './operation-ids.js';
import { addRouteHook, methodsOf } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail's writer: `settled()` waits for the Events written so far (shutdown, tests). */
    auditTrail: AuditTrail;
  }
  interface FastifyRequest {
    /** What the audit record says about the object, taken before the handler ran. */
    auditTarget: AuditTarget | null;
    /** A create's answer (JSON text), to name the object it created. */
    auditAnswer: string | null;
  }
}

interface AuditTarget {
  object: AuditObject;
  team?: string;
  /** The object was there when the request came. */
  existed: boolean;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SECRET_READ = /\/(kubeconfig|credentials)$/;
/** Beekeeper's own objects: on the state hub, in the state namespace, owned by their `beekeeper.io/team` label. */
const STATE_KINDS = new Set<KindName>(['HibernationSchedule', 'ExpiryPolicy', 'WebhookEndpoint', 'Relocation']);
const TEAM_LABEL = 'beekeeper.io/team';
const KIND_OF: Record<string, CachedKind> = {
  clusters: 'ClusterDeployment',
  pools: 'ClusterPool',
  claims: 'ClusterClaim',
  schedules: 'HibernationSchedule',
  'expiry-policies': 'ExpiryPolicy',
  webhooks: 'WebhookEndpoint',
  relocations: 'Relocation',
};
/** Kubernetes names are at most 253 characters; anything longer was refused and is shortened here. */
const MAX_PART = 253;
const MAX_ANSWER = 256 * 1024;
const SHUTDOWN_WAIT_MS = 5000;

export function isAudited(method: string, route: string | undefined): boolean {
  if (!route?.startsWith('/v1/')) return false;
  return MUTATING.has(method) || (method === 'GET' && SECRET_READ.test(route));
}

const str = (v: unknown, max = MAX_PART): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined;

const field = (o: unknown, key: string): unknown =>
  o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;

function compact(o: AuditObject): AuditObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export interface AuditHookDeps extends StateLocation {
  trail: AuditTrail;
  store: Pick<HiveStore, 'cached'>;
  teams: TeamDirectory;
  clock: Clock;
}

export function installAuditTrail(app: FastifyInstance, deps: AuditHookDeps): void {
  const { store, teams } = deps;
  const stateRef = (name: string) => ({ hub: deps.stateHub, namespace: deps.stateNamespace, name });

  const collectionOf = (route: string) => route.split('/')[2] ?? '';
  /** The route names its object (`:name`, `:id`); a POST to a collection creates one. */
  const namesObject = (route: string) => /\/:(name|id)(\/|$)/.test(route);

  const objectOf = (route: string, params: unknown): AuditObject => {
    const kind = KIND_OF[collectionOf(route)];
    if (!kind) return {};
    const name = str(field(params, 'name')) ?? str(field(params, 'id'));
    if (STATE_KINDS.has(kind)) return compact({ kind, ...(name ? stateRef(name) : { hub: deps.stateHub }) });
    return compact({ kind, hub: str(field(params, 'hub')), namespace: str(field(params, 'namespace')), name });
  };

  const cachedOf = (o: AuditObject): KubeObject | undefined => {
    if (!o.kind || !o.hub || !o.name) return undefined;
    try {
      return store.cached(o.kind as CachedKind, { hub: o.hub, namespace: o.namespace, name: o.name });
    } catch {
      return undefined;
    }
  };

  /** The team owning the object (or the namespace it was to be created in), from the team directory. */
  const teamOf = (o: AuditObject, found: KubeObject | undefined): string | undefined => {
    if (!o.kind || !o.hub) return undefined;
    if (STATE_KINDS.has(o.kind)) return found?.metadata.labels?.[TEAM_LABEL];
    if (!o.namespace) return undefined;
    if (o.kind === 'ClusterDeployment' && found) return teams.clusterTeam(o.hub, found as ClusterDeployment);
    if (o.kind === 'ClusterClaim' && found) return teams.claimTeam(o.hub, found as ClusterClaim);
    if (o.kind === 'ClusterPool' && o.name) return teams.poolTeam(o.hub, o.namespace, o.name);
    return teams.namespaceTeam(o.hub, o.namespace);
  };

  const targetBefore = (request: FastifyRequest, route: string): AuditTarget => {
    const object = objectOf(route, request.params);
    const found = cachedOf(object);
    const team = teamOf(object, found);
    return { object, existed: found !== undefined, ...(team !== undefined ? { team } : {}) };
  };

  /** A create: the object its answer names (a job's target, a view's `id` or `name`), else what the body named. */
  const createdTarget = (request: FastifyRequest, route: string, created: boolean): AuditTarget => {
    const kind = KIND_OF[collectionOf(route)];
    if (!kind) return { object: {}, existed: false };
    let answer: unknown;
    try {
      answer = created && request.auditAnswer ? JSON.parse(request.auditAnswer) : undefined;
    } catch {
      answer = undefined;
    }
    const target = field(field(answer, 'job'), 'target');
    const id = str(field(answer, 'id')) ?? str(field(field(answer, 'relocation'), 'id'));
    let object: AuditObject;
    if (str(field(target, 'kind')) === kind)
      object = compact({
        kind,
        hub: str(field(target, 'hub')),
        namespace: str(field(target, 'namespace')),
        name: str(field(target, 'name')),
      });
    else if (STATE_KINDS.has(kind)) {
      const name = id ?? str(field(answer, 'name')) ?? str(field(request.body, 'name'));
      object = compact({ kind, ...(name ? stateRef(name) : { hub: deps.stateHub }) });
    } else if (id && id.split('/').length === 3) {
      const [hub, namespace, name] = id.split('/');
      object = { kind, hub: hub!, namespace: namespace!, name: name! };
    } else
      object = compact({
        kind,
        hub: str(field(request.body, 'hub')),
        namespace: str(field(request.body, 'namespace')),
        name: str(field(request.body, 'name')),
      });
    const found = created ? cachedOf(object) : undefined;
    // A state object just created may not be in the cache yet: its answer's team, else its creator's own.
    const team =
      teamOf(object, found) ??
      (created && STATE_KINDS.has(kind) ? (str(field(answer, 'team')) ?? creatorTeam(request.caller)) : undefined);
    return { object, existed: created, ...(team !== undefined ? { team } : {}) };
  };

  app.decorate('auditTrail', deps.trail);
  app.decorateRequest('auditTarget', null);
  app.decorateRequest('auditAnswer', null);

  // After validation and sign-in, before the handler changes anything.
  const preHandler = async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!isAudited(request.method, route) || !namesObject(route!)) return;
    request.auditTarget = targetBefore(request, route!);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url;
    if (
      request.method === 'POST' &&
      isAudited(request.method, route) &&
      !namesObject(route!) &&
      reply.statusCode < 300 &&
      typeof payload === 'string' &&
      payload.length <= MAX_ANSWER
    )
      request.auditAnswer = payload;
    return payload;
  };

  const onResponse = async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (!isAudited(request.method, route)) return;
    const status = reply.statusCode;
    const outcome = outcomeOf(status);
    // Refused before the handler (sign-in, validation): the object as the request named it.
    const target =
      request.auditTarget ??
      (namesObject(route!) ? targetBefore(request, route!) : createdTarget(request, route!, outcome === 'allowed'));
    // Sign-in refused: request.caller is still the placeholder the auth hook starts with.
    const signedIn = status !== 401;
    const caller = request.caller;
    const role = signedIn && caller ? roleIn(caller, target.team) : undefined;
    const by = str(field(request.body, 'by'), 128);
    const reason = str(field(request.body, 'reason'), 1024);
    const record: AuditRecord = {
      id: randomUUID(),
      time: new Date(deps.clock.now()).toISOString(),
      requestId: request.id,
      actor: {
        name: signedIn && caller ? caller.name : 'unauthenticated',
        via: signedIn && caller ? caller.via : 'none',
        ...(role ? { role } : {}),
        ...(by ? { onBehalfOf: by } : {}),
      },
      ...(target.team !== undefined ? { team: target.team } : {}),
      action: OPERATION_IDS[`${request.method} ${route}`] ?? 'unknownOperation',
      route: `${request.method} ${route}`,
      object: target.object,
      result: { status, outcome },
      ...(reason ? { reason } : {}),
    };
    deps.trail.write(record, { onObject: target.existed || outcome === 'allowed' });
  };

  // Only on audited routes: the others (reads of cached objects) run none of these. A refusal before the handler
  // (sign-in, validation, access) still ends in the route's onResponse, so it is recorded as before.
  app.addHook('onRoute', (route) => {
    if (!methodsOf(route).some((method) => isAudited(method, route.url))) return;
    addRouteHook(route, 'preHandler', preHandler);
    addRouteHook(route, 'onSend', onSend);
    addRouteHook(route, 'onResponse', onResponse);
  });

  // Shutdown gives the Event writes under way a few seconds, not as long as a backlog would take.
  app.addHook('onClose', async () => deps.trail.settled(SHUTDOWN_WAIT_MS));
}

/** The team a creator acts for: its token's team, else its only team. */
function creatorTeam(caller: Caller | undefined): string | undefined {
  if (!caller || caller.platformAdmin) return caller?.token?.team;
  if (caller.token?.team) return caller.token.team;
  return caller.grants.length === 1 ? caller.grants[0]!.team : undefined;
}
