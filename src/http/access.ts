// Every /v1 route declares who may call it, as route config (`config: { access }`), and one preHandler hook enforces
// the declaration before the handler runs (after validation, so the params and body it reads are well-formed, and
// before the Idempotency-Key hook, so a refusal is never recorded as a key's answer). A route that declares nothing
// is for platform admins only, and test/auth/route-access.test.ts fails for it: a new route cannot skip the check.
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Role } from '../auth/caller.js';
import { missing, ownerOf, requireCreate, requireRole, type Owned, type Ownership } from '../auth/authorize.js';
import { Forbidden } from '../hive/errors.js';
import type { NamespacedRef } from '../services/ports.js';
import { prependRouteHooks } from './route-hooks.js';

export type Access =
  /** Anyone signed in (GET /v1/hubs). */
  | { signedIn: true }
  /** Platform admins only: what spans teams or belongs to none. */
  | { platformAdmin: true }
  /** The object the path's `:hub/:namespace/:name` names: hidden (404) without a role in its team, 403 below `role`. */
  | { object: Owned; role: Role }
  /** A create: the body's `hub` and `namespace` must belong to a team where the caller holds `role` (403 otherwise). */
  | { create: Owned; role: Role }
  /**
   * The handler decides: lists that show only what the caller may see, jobs judged by their target, Beekeeper's
   * own objects judged by their team label. `why` says how, for readers of the route.
   */
  | { handled: 'in-handler'; why?: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every /v1 route with its access declaration, as registered (for the test that no route goes without). */
    routeAccess: Array<{ method: string; url: string; access?: Access }>;
  }
}

const pathRef = (request: FastifyRequest): NamespacedRef => {
  const p = request.params as Partial<NamespacedRef>;
  return { hub: p.hub ?? '', namespace: p.namespace ?? '', name: p.name ?? '' };
};

export function installAccess(app: FastifyInstance, deps: Ownership): void {
  const table: FastifyInstance['routeAccess'] = [];
  app.decorate('routeAccess', table);
  // The check is attached to each /v1 route with its declaration (from onRoute), so a request reads neither its
  // route's options nor its declaration again (issue 14: request.routeOptions builds a new object per read). It
  // runs first among the route's preHandler hooks, right after the global ones, where a global hook installed here
  // ran: after validation, before the audit and Idempotency-Key hooks.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/')) return;
    const access = route.config?.access;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, ...(access ? { access } : {}) });
    }
    // Callback-style (see input-guards.ts): a refusal thrown here reaches the error handler like a rejection would.
    const preHandler: preHandlerHookHandler = (request, _reply, done) => {
      check(request, access);
      done();
    };
    prependRouteHooks(route, 'preHandler', [preHandler]);
  });

  function check(request: FastifyRequest, access: Access | undefined): void {
    const { caller } = request;
    if (!access) {
      if (caller.platformAdmin) return;
      throw new Forbidden('this route declares no access rule, so only platform admins may call it');
    }
    if ('signedIn' in access || 'handled' in access) return;
    if ('platformAdmin' in access) {
      if (!caller.platformAdmin) throw new Forbidden('this needs a platform admin');
      return;
    }
    if ('object' in access) {
      // A platform admin holds every role in every team: the owner's lookup (two cache reads) would decide nothing.
      if (caller.platformAdmin) return;
      const ref = pathRef(request);
      requireRole(caller, ownerOf(deps, access.object, ref), access.role, () => missing(access.object, ref));
      return;
    }
    const body = request.body as { hub?: string; namespace?: string };
    const hub = body.hub ?? '';
    const namespace = body.namespace ?? '';
    requireCreate(caller, deps.teams.namespaceTeam(hub, namespace), access.role, `${hub}/${namespace}`);
  }
}
