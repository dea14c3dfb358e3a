import { childPath, indexPath, isObject, type JsonObject } from './schema-node.js';

/**
 * The JSON fields of metav1.ObjectMeta in Kubernetes 1.26 (clusterName was removed in 1.25). The root `metadata`
 * of a custom resource (and of an x-kubernetes-embedded-resource) is not pruned by the CRD schema: the server
 * decodes it as ObjectMeta, so unknown fields are dropped and reported as "metadata.<field>" (golden 19).
 */
const objectMetaFields = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
const ownerReferenceFields = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);
const managedFieldsEntryFields = new Set([
  'manager',
  'operation',
  'apiVersion',
  'time',
  'fieldsType',
  'fieldsV1',
  'subresource',
]);

/** Drops the fields ObjectMeta does not know from `meta` (in place) and returns their paths. */
export function coerceObjectMeta(meta: JsonObject, path: string): string[] {
  const unknown = dropUnknown(meta, objectMetaFields, path);
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

function dropUnknown(obj: JsonObject, known: Set<string>, path: string): string[] {
  const dropped: string[] = [];
  for (const key of Object.keys(obj)) {
    if (known.has(key)) continue;
    delete obj[key];
    dropped.push(childPath(path, key));
  }
  return dropped;
}
