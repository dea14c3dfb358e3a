// JSON of views that are shared between answers (a cached cluster's summary, made once per cached object by the
// service and never changed), serialised once per view and kept as UTF-8 bytes: a read of a cached object then
// costs no fast-json-stringify pass and no encoding, and a page of 100 items is a copy of 100 byte runs (issue 14:
// single gets slower than a direct GET, p99 of a 100-item page 50-64 ms, a third of its CPU in serialisation).
// Bytes, not the serializer's string: that string is a rope of hundreds of pieces, and every join or socket write
// walked it again (a 1,000-item page spent 58% of its CPU there).
import type { FastifyReply } from 'fastify';

/** Serialised bodies by view; a replaced cached object's view (weakly held by the service) takes its body along. */
const bodies = new WeakMap<object, Buffer>();

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** `view`'s JSON, made by `serialize` (the route's own fast-json-stringify function, so the same bytes) once. */
export function sharedJson(view: object, serialize: (view: object) => string): Buffer {
  let body = bodies.get(view);
  if (body === undefined) {
    body = Buffer.from(serialize(view), 'utf8');
    bodies.set(view, body);
  }
  return body;
}

const OPEN = '{"items":[';
const COMMA = Buffer.from(',');

/**
 * Sends a page `{ items, ...rest }` whose items are shared views: the envelope goes through the route's serializer
 * with no items (so its other fields keep the schema's names, order and formats), and the items' stored JSON is put
 * in its empty array. `items` must be the schema's first property.
 */
export function sendSharedPage<T extends { items: readonly object[] }>(
  reply: FastifyReply,
  page: T,
  itemJson: (item: object) => Buffer,
): FastifyReply {
  const envelope = reply.serialize({ ...page, items: [] }) as string;
  if (!envelope.startsWith(`${OPEN}]`)) throw new Error('sendSharedPage: items must be the first property of the page');
  const parts: Buffer[] = [Buffer.from(OPEN)];
  page.items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(itemJson(item));
  });
  parts.push(Buffer.from(envelope.slice(OPEN.length)));
  return reply.type(JSON_UTF8).send(Buffer.concat(parts));
}
