// A resource's schema (hive/resources) as the API shows it, closed at every level. As a request body, since a
// misplaced key would silently mean something else: with the rules only the API states (`apiOnly`) and without
// those only the CRD states (`crdOnly`: values the service checks itself, naming every bad field at once, or
// defaults). As a response, the resource's fields and no rules of either side: the API server keeps only the fields
// the CRD declares, and the response serializer writes only the fields the schema declares.
import type { TSchema } from 'typebox';

/** Same static type as `schema`: only what the checker enforces differs. */
export function requestShape<T extends TSchema>(schema: T): T {
  return reshape(schema, 'request') as T;
}

/** Same static type as `schema`, for a response body (a view in hive/resources). */
export function responseShape<T extends TSchema>(schema: T): T {
  return reshape(schema, 'response') as T;
}

type Use = 'request' | 'response';
const CRD_ONLY = new Set<string | symbol>(['x-crd-only', 'x-api-only', 'x-kubernetes-validations']);

function reshape(node: object, use: Use): object {
  // TypeBox keeps what makes a property optional in non-enumerable `~` keys: copy descriptors, not values.
  const out = Object.create(Object.getPrototypeOf(node)) as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(node)) {
    if (key === 'x-crd-only' || key === 'x-api-only' || (use === 'response' && CRD_ONLY.has(key))) continue;
    const desc = Object.getOwnPropertyDescriptor(node, key)!;
    Object.defineProperty(out, key, { ...desc, value: child(key, desc.value, use) });
  }
  if (use === 'request') Object.assign(out, (node as Record<string, unknown>)['x-api-only']);
  if (out.type === 'object' && out.properties !== undefined) out.additionalProperties = false;
  return out;
}

function child(key: string | symbol, value: unknown, use: Use): unknown {
  if (key === 'properties' || key === 'patternProperties') {
    return Object.fromEntries(Object.entries(value as Record<string, object>).map(([k, v]) => [k, reshape(v, use)]));
  }
  if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
    return reshape(value as object, use);
  if (key === 'anyOf') return (value as object[]).map((v) => reshape(v, use));
  return value;
}
