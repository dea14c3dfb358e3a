// Key order of stored objects. The real server answers built-in kinds in Go struct field order and custom
// resources with alphabetically sorted keys (they round-trip through unstructured maps); clients and goldens see
// it, so the double stores every object already in its wire order and serialises it once.

export interface Shape {
  order: string[];
  /** Fields the Go struct always emits (no omitempty): their value when unset (null, {}, ""). */
  always?: Record<string, unknown>;
  /** Shapes of object-valued fields. */
  nested?: Record<string, Shape>;
  /** Shapes of the elements of array-valued fields. */
  items?: Record<string, Shape>;
}

export const ownerReferenceShape: Shape = {
  order: ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'],
};
export const managedFieldsShape: Shape = {
  order: ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'],
};
/** metav1.ObjectMeta's JSON fields in Kubernetes 1.26 (clusterName was removed in 1.25), in the server's order. */
export const objectMetaShape: Shape = {
  order: [
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
  ],
  items: { ownerReferences: ownerReferenceShape, managedFields: managedFieldsShape },
};
export const objectReferenceShape: Shape = {
  order: ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'],
};
export const conditionShape: Shape = { order: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] };

/** Top-level shape of a built-in kind: kind, apiVersion, metadata, then the kind's own fields. */
export function kindShape(order: string[], extra: Omit<Shape, 'order'> = {}): Shape {
  return {
    order: ['kind', 'apiVersion', 'metadata', ...order],
    always: extra.always,
    nested: { metadata: objectMetaShape, ...extra.nested },
    items: extra.items,
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reorders `obj` by `shape`; keys the shape does not know keep their relative order at the end. */
export function orderByShape(obj: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of shape.order) {
    let value = obj[key];
    if (value === undefined && shape.always && key in shape.always) value = structuredClone(shape.always[key]);
    if (value === undefined) continue;
    out[key] = shapeValue(value, shape.nested?.[key], shape.items?.[key]);
  }
  for (const key of Object.keys(obj)) if (!(key in out) && obj[key] !== undefined) out[key] = obj[key];
  return out;
}

function shapeValue(value: unknown, nested?: Shape, items?: Shape): unknown {
  if (nested && isPlainObject(value)) return orderByShape(value, nested);
  if (items && Array.isArray(value)) return value.map((v) => (isPlainObject(v) ? orderByShape(v, items) : v));
  return value;
}

/** Custom resources: every map sorted by key, at every depth. */
export function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sortDeep(value[key]);
  return out;
}
