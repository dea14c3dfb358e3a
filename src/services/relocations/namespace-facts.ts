// What relocation's preflight learns of one namespace on both hubs, read live (no cache holds Secrets or
// ConfigMaps): the Secrets the source holds, and what on the destination would trip Hive's copy.
import { createHash } from 'node:crypto';
import type { ClusterFacts } from '../../hive/relocation/preflight-facts.js';
import type { Secret } from '../../hive/types.js';
import type { HiveStore, KubeObject } from '../ports.js';

/** What Hive's copy leaves out (REFERENCE.md §6 step 5): these never conflict. */
const NOT_COPIED_CONFIGMAPS = new Set(['kube-root-ca.crt', 'openshift-service-ca.crt']);
const SA_TOKEN = 'kubernetes.io/service-account-token';
interface Contents extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

/** A digest of what Hive compares, so no Secret value is kept beyond the read. */
const digest = (o: Contents) =>
  createHash('sha256')
    .update(
      JSON.stringify([o.type ?? '', Object.entries(o.data ?? {}).sort(), Object.entries(o.binaryData ?? {}).sort()]),
    )
    .digest('hex');

export interface NamespaceFacts {
  secrets: Set<string>;
  conflicting: ClusterFacts['conflicting'];
  terminating: boolean;
  /** Why something could not be checked. */
  unchecked?: string;
}

/**
 * The namespace on both hubs: which Secrets the source holds, and what on the destination would trip Hive's copy
 * (same-named Secrets and ConfigMaps that differ; a namespace being deleted).
 */
export async function namespaceFacts(
  store: HiveStore,
  at: {
    from: string;
    to: string;
    namespace: string;
    destinationUp: boolean;
    destinationNamespaces?: ReadonlyMap<string, KubeObject> | undefined;
    /** Already listed (many namespaces at once). */
    sourceSecrets?: Secret[] | undefined;
  },
): Promise<NamespaceFacts> {
  const { from, to, namespace } = at;
  const out: NamespaceFacts = { secrets: new Set(), conflicting: [], terminating: false };
  let sourceSecrets: Secret[];
  try {
    sourceSecrets = at.sourceSecrets ?? (await store.list<Secret>('Secret', from, { namespace }));
  } catch (err) {
    return { ...out, unchecked: `could not list its Secrets on ${from}: ${(err as Error).message}` };
  }
  out.secrets = new Set(sourceSecrets.map((s) => s.metadata.name));
  if (!at.destinationUp) return out;
  try {
    const ns = at.destinationNamespaces
      ? at.destinationNamespaces.get(namespace)
      : await store.get('Namespace', { hub: to, name: namespace });
    if (!ns) return out;
    out.terminating = !!ns.metadata.deletionTimestamp;
    const [destSecrets, destMaps, sourceMaps] = await Promise.all([
      store.list<Contents>('Secret', to, { namespace }),
      store.list<Contents>('ConfigMap', to, { namespace }),
      store.list<Contents>('ConfigMap', from, { namespace }),
    ]);
    const compare = (kind: 'Secret' | 'ConfigMap', source: Contents[], dest: Contents[]) => {
      const there = new Map(dest.map((d) => [d.metadata.name, d]));
      for (const s of source) {
        if (kind === 'Secret' && s.type === SA_TOKEN) continue;
        if (kind === 'ConfigMap' && NOT_COPIED_CONFIGMAPS.has(s.metadata.name)) continue;
        const d = there.get(s.metadata.name);
        if (d && digest(d) !== digest(s))
          out.conflicting.push({
            kind,
            name: s.metadata.name,
            owners: (d.metadata.ownerReferences ?? []).map((o) => ({ kind: o.kind, name: o.name })),
          });
      }
    };
    compare('Secret', sourceSecrets, destSecrets);
    compare('ConfigMap', sourceMaps, destMaps);
  } catch (err) {
    out.unchecked = `could not compare it with ${to}'s: ${(err as Error).message}`;
  }
  return out;
}
