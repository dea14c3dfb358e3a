import { coerceObjectMeta } from './object-meta.js';
import { additionalSchema, childPath, indexPath, isObject, type SchemaNode } from './schema-node.js';

/**
 * Structural pruning as apiextensions-apiserver does it on decode (pkg/apiserver/schema/pruning): every field the
 * schema does not specify is removed, except under x-kubernetes-preserve-unknown-fields. At a resource root and
 * inside x-kubernetes-embedded-resource objects, string `apiVersion`/`kind` and an object `metadata` are kept, and
 * `metadata` is then coerced to ObjectMeta. Mutates `x`; returns the removed paths.
 */
export function prune(x: unknown, s: SchemaNode | undefined, path: string, isResource: boolean): string[] {
  const pruned: string[] = [];
  walk(x, s, path, isResource, pruned);
  return pruned;
}

function walk(x: unknown, s: SchemaNode | undefined, path: string, isResource: boolean, pruned: string[]): void {
  if (Array.isArray(x)) {
    x.forEach((item, i) => walk(item, s?.items, indexPath(path, i), false, pruned));
    return;
  }
  if (!isObject(x)) return;
  const embedded = isResource || s?.['x-kubernetes-embedded-resource'] === true;
  const preserve = s?.['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [key, value] of Object.entries(x)) {
    const keyPath = childPath(path, key);
    if (embedded && (key === 'apiVersion' || key === 'kind') && typeof value === 'string') continue;
    if (embedded && key === 'metadata' && isObject(value)) {
      pruned.push(...coerceObjectMeta(value, keyPath));
      continue;
    }
    const prop = s?.properties?.[key] ?? additionalSchema(s);
    if (prop) walk(value, prop, keyPath, false, pruned);
    else if (preserve || s?.additionalProperties === true) continue;
    else {
      delete x[key];
      pruned.push(keyPath);
    }
  }
}

/**
 * apiextensions drops `null` values of fields that are neither nullable nor defaulted before defaulting runs
 * (structuraldefaulting.PruneNonNullableNullsWithoutDefaults), so `{"powerState": null}` is accepted silently.
 */
export function dropNonNullableNulls(x: unknown, s: SchemaNode | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    for (const item of x) dropNonNullableNulls(item, s.items);
    return;
  }
  if (!isObject(x)) return;
  for (const [key, value] of Object.entries(x)) {
    const prop = s.properties?.[key] ?? additionalSchema(s);
    if (!prop) continue;
    if (value === null && !prop.nullable && prop.default === undefined) delete x[key];
    else dropNonNullableNulls(value, prop);
  }
}
