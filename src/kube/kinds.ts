// Where each kind lives in the Kubernetes REST tree (REFERENCE.md §1 for Hive; upstream for core kinds).
// ClusterRelocate is namespaced: that is what the CRD declares and the API server enforces (§1 note).
import { GROUP, VERSION } from '../hive/resources/crd.js';
import type { KindName, ObjectRef } from '../services/ports.js';

export interface KindInfo {
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
}

const hive = (plural: string, namespaced = true): KindInfo => ({
  group: 'hive.openshift.io',
  version: 'v1',
  plural,
  namespaced,
});
const core = (plural: string, namespaced = true): KindInfo => ({ group: '', version: 'v1', plural, namespaced });
// Beekeeper's own resources, read and written at the storage version only (docs/upgrades.md).
const beekeeper = (plural: string): KindInfo => ({
  group: GROUP,
  version: VERSION,
  plural,
  namespaced: true,
});

export const KINDS: Readonly<Record<KindName, KindInfo>> = {
  ClusterDeployment: hive('clusterdeployments'),
  ClusterPool: hive('clusterpools'),
  ClusterClaim: hive('clusterclaims'),
  ClusterImageSet: hive('clusterimagesets', false),
  ClusterRelocate: hive('clusterrelocates'),
  Namespace: core('namespaces', false),
  Secret: core('secrets'),
  ConfigMap: core('configmaps'),
  Event: core('events'),
  Lease: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', namespaced: true },
  RoleBinding: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', namespaced: true },
  CustomResourceDefinition: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
  HibernationSchedule: beekeeper('hibernationschedules'),
  ClusterOverride: beekeeper('clusteroverrides'),
  ExpiryPolicy: beekeeper('expirypolicies'),
  WebhookEndpoint: beekeeper('webhookendpoints'),
  Operation: beekeeper('operations'),
  Relocation: beekeeper('relocations'),
};

export function apiVersionOf(kind: KindName): string {
  const k = KINDS[kind];
  return k.group ? `${k.group}/${k.version}` : k.version;
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(kind: KindName): string {
  const k = KINDS[kind];
  return k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
}

/**
 * The collection path (no name) or the object path. A namespaced kind without a namespace gives the
 * all-namespaces collection, which is what lists and informers want.
 */
export function resourcePath(
  kind: KindName,
  ref?: { namespace?: string; name?: string },
  subresource?: string,
): string {
  const k = KINDS[kind];
  const ns = k.namespaced && ref?.namespace ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
  const name = ref?.name ? `/${encodeURIComponent(ref.name)}` : '';
  const sub = ref?.name && subresource ? `/${subresource}` : '';
  return `${groupVersionPath(kind)}${ns}/${k.plural}${name}${sub}`;
}

export function describeRef(kind: KindName, ref: ObjectRef): string {
  return `${kind} ${ref.hub}/${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}
