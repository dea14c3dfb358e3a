// What informer caches keep of an object: everything but the API server's write bookkeeping, which Beekeeper never
// reads and which is most of a Hive object's size (a ClusterDeployment written by a few managers carries kilobytes
// of managedFields; `kubectl apply` adds the whole object again as an annotation). client-go users do the same with
// an informer TransformFunc (SharedIndexInformer.SetTransform, e.g. controller-runtime's
// cache.TransformStripManagedFields). Cached copies only: every write Beekeeper bases on an object it read
// (a PUT) reads it live first, and a PUT without managedFields leaves the server's unchanged.

/** `kubectl apply`'s copy of the applied object (kubectl's annotation, kept by it and by nobody else). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

interface Slimmable {
  metadata?: { managedFields?: unknown; annotations?: Record<string, string> };
}

/**
 * Drops `metadata.managedFields` and the last-applied annotation, in place (the caller owns the freshly parsed object).
 * New metadata and annotations objects, built in the same key order, rather than `delete`: a delete of any property
 * but the last added turns a V8 object into a dictionary, which costs more than the field saved.
 */
export function slimObject<T>(obj: T): T {
  const meta = (obj as Slimmable | undefined)?.metadata;
  if (!meta) return obj;
  const lastApplied = meta.annotations?.[LAST_APPLIED_ANNOTATION] !== undefined;
  if (meta.managedFields === undefined && !lastApplied) return obj;
  const slim: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (key === 'managedFields') continue;
    if (key === 'annotations' && lastApplied) {
      const kept = without(value as Record<string, string>, LAST_APPLIED_ANNOTATION);
      if (kept) slim.annotations = kept;
      continue;
    }
    slim[key] = value;
  }
  (obj as Slimmable).metadata = slim;
  return obj;
}

function without(map: Record<string, string>, dropped: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let kept = 0;
  for (const [key, value] of Object.entries(map))
    if (key !== dropped) {
      out[key] = value;
      kept++;
    }
  return kept > 0 ? out : undefined;
}
