// Discovery documents (goldens 01-05). kubectl and client-node read these to map kinds to resources.
import type { Registry } from './registry.js';
import type { ResourceType } from './types.js';

export const versionInfo = {
  major: '1',
  minor: '26',
  gitVersion: 'v1.26.5',
  gitCommit: 'f15848069aef4efeaa4b8dafa17f89db7303572e',
  gitTreeState: '',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: 'go1.19.8',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export const apiVersions = (serverAddress: string) => ({
  kind: 'APIVersions',
  versions: ['v1'],
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
});

const groupEntry = (name: string, versions: string[]) => ({
  name,
  versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
  preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
});

export const apiGroupList = (registry: Registry) => ({
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: registry.groups().map((g) => groupEntry(g.name, g.versions)),
});

export function apiGroup(registry: Registry, name: string) {
  const g = registry.groups().find((x) => x.name === name);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g.name, g.versions) } : undefined;
}

function entries(t: ResourceType): any[] {
  const main: any = {
    name: t.resource,
    singularName: t.builtin ? '' : t.singular,
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: t.verbs,
  };
  if (t.shortNames?.length) main.shortNames = t.shortNames;
  if (t.categories?.length) main.categories = t.categories;
  const hash = t.custom?.storageVersionHash ?? t.storageVersionHash;
  if (hash) main.storageVersionHash = hash;
  const out = [main];
  const sub = (name: string, extra: any = {}, verbs = ['get', 'patch', 'update']) =>
    out.push({
      name: `${t.resource}/${name}`,
      singularName: '',
      namespaced: t.namespaced,
      ...extra,
      kind: extra.kind ?? t.kind,
      verbs,
    });
  if (t.resource === 'namespaces' && !t.group) {
    sub('finalize', {}, ['update']);
    sub('status');
  } else if (t.statusSubresource) sub('status');
  if (t.scale) sub('scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  if (t.resource === 'serviceaccounts' && !t.group)
    sub('token', { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, ['create']);
  return out;
}

export function apiResourceList(registry: Registry, group: string, version: string) {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (!types.length) return undefined;
  const resources = types.flatMap(entries);
  if (!group) return { kind: 'APIResourceList', groupVersion: version, resources };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
}
