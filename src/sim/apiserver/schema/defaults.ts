import { additionalSchema, isObject, type SchemaNode } from './schema-node.js';

/**
 * Structural defaulting (apiextensions pkg/apiserver/schema/defaulting): a property's `default` is deep-copied in
 * when the property is absent (or a non-nullable null) in an object that exists. Absent objects are not created,
 * but defaults nested in a present object apply, so `credentialsSecretRef: {}` becomes `{"name": ""}` (golden 07).
 */
export function applyDefaults(x: unknown, s: SchemaNode | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    x.forEach((item, i) => {
      if (item === null && s.items && isDefaultable(s.items)) x[i] = structuredClone(s.items.default);
      applyDefaults(x[i], s.items);
    });
    return;
  }
  if (!isObject(x)) return;
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(key in x) || (x[key] === null && !prop.nullable)) x[key] = structuredClone(prop.default);
  }
  const extra = additionalSchema(s);
  for (const [key, value] of Object.entries(x)) {
    const prop = s.properties?.[key] ?? extra;
    if (!prop) continue;
    if (value === null && prop === extra && isDefaultable(prop)) x[key] = structuredClone(prop.default);
    applyDefaults(x[key], prop);
  }
}

function isDefaultable(s: SchemaNode): boolean {
  return s.default !== undefined && !s.nullable;
}
