import { OBJECT_META_FIELDS } from '../meta.js';
import { managedFieldsShape, ownerReferenceShape } from '../serialize.js';
import { childPath, indexPath, isObject, type JsonObject } from './schema-node.js';

// The root `metadata` of a custom resource (and of an x-kubernetes-embedded-resource) is not pruned by the CRD
// schema: the server decodes it as ObjectMeta (Kubernetes 1.26's fields, in serialize.ts's key order), so unknown
// fields are dropped and reported as "metadata.<field>" (golden 19).
const ownerReferenceFields: ReadonlySet<string> = new Set(ownerReferenceShape.order);
const managedFieldsEntryFields: ReadonlySet<string> = new Set(managedFieldsShape.order);

/** Drops the fields ObjectMeta does not know from `meta` (in place) and returns their paths. */
export function coerceObjectMeta(meta: JsonObject, path: string): string[] {
  const unknown = dropUnknown(meta, OBJECT_META_FIELDS, path);
  for (const [list, known] of [
    ['ownerReferences', ownerReferenceFields],
    ['managedFields', managedFieldsEntryFields],
  ] as const) {
    const items = meta[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (isObject(item)) unknown.push(...dropUnknown(item, known, indexPath(childPath(path, list), i)));
    });
  }
  return unknown;
}

function dropUnknown(obj: JsonObject, known: ReadonlySet<string>, path: string): string[] {
  const dropped: string[] = [];
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    delete obj[key];
    dropped.push(childPath(path, key));
  }
  return dropped;
}
