// JSON of views that are shared between answers (a cached cluster's summary, made once per cached object by the
// service and never changed), serialised once per view and sent as text: a read of a cached object then costs no
// fast-json-stringify pass, and a page of 100 items is a join of 100 strings (issue 14: single gets slower than a
// direct GET, p99 of a 100-item page 50-64 ms, a third of its CPU in serialisation).
import type { FastifyReply } from 'fastify';

/** Serialised bodies by view; a replaced cached object's view (weakly held by the service) takes its body along. */
const bodies = new WeakMap<object, string>();

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** `view`'s JSON, made by `serialize` (the route's own fast-json-stringify function, so the same bytes) once. */
export function sharedJson(view: object, serialize: (view: object) => string): string {
  let body = bodies.get(view);
  if (body === undefined) {
    body = serialize(view);
    bodies.set(view, body);
  }
  return body;
}

/**
 * Sends a page `{ items, ...rest }` whose items are shared views: the envelope goes through the route's serializer
 * with no items (so its other fields keep the schema's names, order and formats), and the items' stored JSON is put
 * in its empty array. `items` must be the schema's first property.
 */
export function sendSharedPage<T extends { items: readonly object[] }>(
  reply: FastifyReply,
  page: T,
  itemJson: (item: object) => string,
): FastifyReply {
  const envelope = reply.serialize({ ...page, items: [] }) as string;
  const open = '{"items":[';
  if (!envelope.startsWith(`${open}]`)) throw new Error('sendSharedPage: items must be the first property of the page');
  const items = page.items.map(itemJson).join(',');
  return reply.type(JSON_UTF8).send(`${open}${items}${envelope.slice(open.length)}`);
}
