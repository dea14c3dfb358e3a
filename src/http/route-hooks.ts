// Hooks that only some routes need, attached to those routes (from an onRoute hook) instead of to every request:
// a GET of a cached object then runs none of the POST-only or audit-only hooks at all.
import type { RouteOptions } from 'fastify';

type HookName = 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

/**
 * Appends `hook` to the route's own hooks of that name (in the order the onRoute hooks were installed). Route hooks
 * run after every global hook of the same name.
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const own = route[name] as unknown;
  (route as unknown as Record<HookName, unknown[]>)[name] = [...(own === undefined ? [] : [own].flat()), hook];
}

/**
 * Puts `hooks` before the route's own hooks of that name (and before those other onRoute hooks appended): they run
 * right after every global hook of the same name, where global hooks of their own would have run.
 */
export function prependRouteHooks(route: RouteOptions, name: HookName, hooks: readonly unknown[]): void {
  if (hooks.length === 0) return;
  const own = route[name] as unknown;
  (route as unknown as Record<HookName, unknown[]>)[name] = [...hooks, ...(own === undefined ? [] : [own].flat())];
}

/** The route's methods, one or several. */
export const methodsOf = (route: RouteOptions): string[] => [route.method].flat();
