import { obj, str, type Schema } from './schema-builders.js';

/**
 * corev1.LocalObjectReference as controller-gen renders it: `name` defaults to "" and the map is atomic. That
 * default is why an empty `pullSecretRef: {}` is stored as `{"name": ""}` (golden 07).
 */
export function localRef(): Schema {
  return obj({ name: str({ default: '' }) }, undefined, { 'x-kubernetes-map-type': 'atomic' });
}

/** Hive's own `{name}` references with a required name (imageSetRef, clusterDeploymentRef in CDC status, ...). */
export function requiredNameRef(): Schema {
  return obj({ name: str() }, ['name']);
}

/** A `{namespace, name}` reference where both are required (ClusterRelocate kubeconfigSecretRef, HiveConfig refs). */
export function namespacedRef(): Schema {
  return obj({ name: str(), namespace: str() }, ['name', 'namespace']);
}
