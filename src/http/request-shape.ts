// A resource's schema (hive/resources) as a request body: closed at every level, since a misplaced key would
// silently mean something else, and without the value rules (patterns, lengths, defaults, formats) that the
// service checks itself, so a person learns every bad field at once with a reason they can act on (422).
import type { TSchema } from 'typebox';

const VALUE_RULES = new Set(['pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'default', 'format']);

/** Same static type as `schema`: only what the checker enforces differs. */
export function requestShape<T extends TSchema>(schema: T): T {
  return reshape(schema) as T;
}

function reshape(node: object): object {
  // TypeBox keeps what makes a property optional in non-enumerable `~` keys: copy descriptors, not values.
  const out = Object.create(Object.getPrototypeOf(node)) as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(node)) {
    if (typeof key === 'string' && VALUE_RULES.has(key)) continue;
    const desc = Object.getOwnPropertyDescriptor(node, key)!;
    Object.defineProperty(out, key, { ...desc, value: child(key, desc.value) });
  }
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
