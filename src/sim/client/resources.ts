/** Where a kind lives in the REST API (metav1.APIResource: group, version, plural, kind, scope). */
export interface ApiResource {
  group: string; // '' for core
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

const hive = (kind: string, plural: string, namespaced = true): ApiResource => ({
  group: 'hive.openshift.io',
  version: 'v1',
  plural,
  kind,
  namespaced,
});

// The kinds the simulator's controllers read and write, scoped exactly as upstream (REFERENCE §1).
export const R = {
  namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  secret: { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true },
  configMap: { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
  role: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role', namespaced: true },
  roleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
  },
  clusterDeployment: hive('ClusterDeployment', 'clusterdeployments'),
  clusterPool: hive('ClusterPool', 'clusterpools'),
  clusterClaim: hive('ClusterClaim', 'clusterclaims'),
  clusterRelocate: hive('ClusterRelocate', 'clusterrelocates'),
  clusterImageSet: hive('ClusterImageSet', 'clusterimagesets', false),
  hiveConfig: hive('HiveConfig', 'hiveconfigs', false),
  clusterProvision: hive('ClusterProvision', 'clusterprovisions'),
  clusterDeprovision: hive('ClusterDeprovision', 'clusterdeprovisions'),
  machinePool: hive('MachinePool', 'machinepools'),
  dnsZone: hive('DNSZone', 'dnszones'),
  syncSet: hive('SyncSet', 'syncsets'),
  syncIdentityProvider: hive('SyncIdentityProvider', 'syncidentityproviders'),
  clusterSync: {
    group: 'hiveinternal.openshift.io',
    version: 'v1alpha1',
    plural: 'clustersyncs',
    kind: 'ClusterSync',
    namespaced: true,
  },
} satisfies Record<string, ApiResource>;

export const apiVersionOf = (r: ApiResource): string => (r.group ? `${r.group}/${r.version}` : r.version);

/** `/api/v1/namespaces/ns/secrets/name` and friends. */
export function resourcePath(r: ApiResource, namespace?: string, name?: string, subresource?: string): string {
  let p = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  if (r.namespaced && namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
  p += `/${r.plural}`;
  if (name) p += `/${encodeURIComponent(name)}`;
  if (subresource) p += `/${subresource}`;
  return p;
}
