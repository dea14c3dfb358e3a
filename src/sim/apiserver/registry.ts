// Which resources are served: the built-ins plus one entry per served version of every established CRD.
import { createHash } from 'node:crypto';
import type { ResourceType } from './types.js';
import { compareKubeAwareVersions } from './kube-versions.js';

/** discovery.StorageVersionHash: base64 of the first 8 bytes of sha256("group/version/Kind"). */
export const storageVersionHash = (group: string, version: string, kind: string) =>
  createHash('sha256')
    .update(group ? `${group}/${version}/${kind}` : `${version}/${kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');

export interface Registry {
  lookup(group: string, version: string, resource: string): ResourceType | undefined;
  /** All versions of a resource that share one storage table. */
  byStorage(storageKey: string): ResourceType[];
  all(): ResourceType[];
  /** Groups in registration order, each with its versions (preferred first). */
  groups(): Array<{ name: string; versions: string[] }>;
  add(types: ResourceType[], owner?: string): void;
  /** Removes the types a CRD registered. */
  removeOwned(owner: string): void;
}

export function createRegistry(): Registry {
  const types: Array<{ type: ResourceType; owner?: string }> = [];
  const key = (g: string, v: string, r: string) => `${g}/${v}/${r}`;
  const index = new Map<string, ResourceType>();
  const reindex = () => {
    index.clear();
    for (const { type } of types) index.set(key(type.group, type.version, type.resource), type);
  };
  return {
    lookup: (g, v, r) => index.get(key(g, v, r)),
    byStorage: (storageKey) => types.map((t) => t.type).filter((t) => t.storageKey === storageKey),
    all: () => types.map((t) => t.type),
    groups() {
      const out = new Map<string, string[]>();
      const custom = new Set<string>();
      for (const { type } of types) {
        if (!type.group) continue;
        const versions = out.get(type.group) ?? [];
        if (!versions.includes(type.version)) versions.push(type.version);
        out.set(type.group, versions);
        if (type.custom) custom.add(type.group);
      }
      // A CRD group's versions are listed by kube-aware priority, the first being the preferred version
      // (apiextensions discovery controller); built-in groups keep the order they were registered in.
      return [...out].map(([name, versions]) => ({
        name,
        versions: custom.has(name) ? [...versions].sort(compareKubeAwareVersions) : versions,
      }));
    },
    add(added, owner) {
      for (const type of added) {
        if (!type.storageVersionHash && !type.custom)
          type.storageVersionHash = storageVersionHash(type.group, type.version, type.kind);
        types.push({ type, owner });
      }
      reindex();
    },
    removeOwned(owner) {
      for (let i = types.length - 1; i >= 0; i--) if (types[i]!.owner === owner) types.splice(i, 1);
      reindex();
    },
  };
}
