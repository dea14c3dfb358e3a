import type { FieldError } from './field-error.js';
import { indexPath, isObject, type SchemaNode } from './schema-node.js';

/**
 * x-kubernetes-list-type uniqueness (apiextensions pkg/apiserver/schema/listtype): a `set` may not repeat an item,
 * a `map` may not repeat a key tuple. Each repeated value is reported once, at its second appearance.
 */
export function checkListType(list: unknown[], s: SchemaNode, path: string, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of repeatedIndices(list)) errs.push({ type: 'Duplicate', field: indexPath(path, i), value: list[i] });
    return;
  }
  if (listType !== 'map') return;
  const bad = list.findIndex((item) => item !== null && !isObject(item));
  if (bad >= 0) {
    errs.push({
      type: 'Invalid',
      field: indexPath(path, bad),
      value: list[bad],
      detail: 'must be an object for an array of list-type map',
    });
    return;
  }
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const keys = list.map((item) => {
    const key: Record<string, unknown> = {};
    for (const k of keyFields) if (isObject(item) && k in item) key[k] = item[k];
    return key;
  });
  for (const i of repeatedIndices(keys)) errs.push({ type: 'Duplicate', field: indexPath(path, i), value: keys[i] });
}

function repeatedIndices(values: unknown[]): number[] {
  const seen = new Map<string, number>();
  const repeated: number[] = [];
  values.forEach((v, i) => {
    const key = canonicalJson(v);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) repeated.push(i);
  });
  return repeated;
}

/** JSON with sorted object keys, like Go's json.Marshal of a map: equal values give equal text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
