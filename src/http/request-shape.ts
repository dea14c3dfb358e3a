// A resource's schema (hive/resources) as a request body: closed at every level, since a misplaced key would
// silently mean something else; with the rules only the API states (`apiOnly`) and without those only the CRD
// states (`crdOnly`: values the service checks itself, naming every bad field at once, or defaults).
import type { TSchema } from 'typebox';

/** Same static type as `schema`: only what the checker enforces differs. */
export function requestShape<T extends TSchema>(schema: T): T {
  return reshape(schema) as T;
}

function reshape(node: object): object {
  // TypeBox keeps what makes a property optional in non-enumerable `~` keys: copy descriptors, not values.
  const out = Object.create(Object.getPrototypeOf(node)) as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(node)) {
    if (key === 'x-crd-only' || key === 'x-api-only') continue;
    const desc = Object.getOwnPropertyDescriptor(node, key)!;
    Object.defineProperty(out, key, { ...desc, value: child(key, desc.value) });
  }
  Object.assign(out, (node as Record<string, unknown>)['x-api-only']);
  if (out.type === 'object' && out.properties !== undefined) out.additionalProperties = false;
  return out;
}

function child(key: string | symbol, value: unknown): unknown {
  if (key === 'properties' || key === 'patternProperties') {
    return Object.fromEntries(Object.entries(value as Record<string, object>).map(([k, v]) => [k, reshape(v)]));
  }
  if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) return reshape(value as object);
  if (key === 'anyOf') return (value as object[]).map(reshape);
  return value;
}
