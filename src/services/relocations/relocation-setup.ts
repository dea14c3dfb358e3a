// What a relocation creates on the source hub before anything moves, and removes at the end (REFERENCE.md §6):
// the destination's kubeconfig in a Secret (data key `kubeconfig`) and one ClusterRelocate selecting exactly the
// relocation's label, both in the state namespace (created there if missing); and, on the destination, the
// ClusterImageSets the clusters reference that it lacks (Hive does not copy them).
import { BEEKEEPER, BEEKEEPER_LABELS, HIVE_API_VERSION } from '../../hive/constants.js';
import { Conflict, NotFound } from '../../hive/errors.js';
import { RELOCATION_LABEL } from '../../hive/relocation-marks.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore, KubeObject, ObjectRef } from '../ports.js';

export const relocateName = (id: string) => `relocation-${id}`;
export const kubeconfigSecretName = (id: string) => `relocation-${id}-kubeconfig`;

const ignore =
  (...kinds: Array<new (...a: never[]) => Error>) =>
  (err: unknown) => {
    if (!kinds.some((k) => err instanceof k)) throw err;
  };

export async function ensureRelocateObjects(
  store: HiveStore,
  opts: { id: string; from: string; namespace: string; kubeconfig: () => string | Promise<string> },
): Promise<{
  clusterRelocate: { namespace: string; name: string };
  kubeconfigSecret: { namespace: string; name: string };
}> {
  const { id, from, namespace } = opts;
  const labels = { [BEEKEEPER_LABELS.managedBy]: BEEKEEPER };
  await store.create('Namespace', from, { metadata: { name: namespace } }).catch(ignore(Conflict));
  const secret = { namespace, name: kubeconfigSecretName(id) };
  // Always written again: a resumed relocation hands over the destination's credentials as they are now.
  const data = { kubeconfig: Buffer.from(await opts.kubeconfig(), 'utf8').toString('base64') };
  const annotations = { 'beekeeper.io/relocation-id': id };
  await store
    .create('Secret', from, { metadata: { ...secret, labels, annotations }, type: 'Opaque', data })
    .catch(async (err: unknown) => {
      if (!(err instanceof Conflict)) throw err;
      await store.mergePatch('Secret', { hub: from, ...secret }, { data });
    });
  const relocate = { namespace, name: relocateName(id) };
  await store
    .create('ClusterRelocate', from, {
      apiVersion: HIVE_API_VERSION,
      kind: 'ClusterRelocate',
      metadata: { ...relocate, labels, annotations },
      spec: {
        kubeconfigSecretRef: secret,
        clusterDeploymentSelector: { matchLabels: { [RELOCATION_LABEL]: id } },
      },
    })
    .catch(ignore(Conflict));
  return { clusterRelocate: relocate, kubeconfigSecret: secret };
}

export async function deleteRelocateObjects(
  store: HiveStore,
  from: string,
  objs: {
    clusterRelocate?: { namespace: string; name: string };
    kubeconfigSecret?: { namespace: string; name: string };
  },
): Promise<void> {
  if (objs.clusterRelocate)
    await store.delete('ClusterRelocate', { hub: from, ...objs.clusterRelocate }).catch(ignore(NotFound));
  if (objs.kubeconfigSecret)
    await store.delete('Secret', { hub: from, ...objs.kubeconfigSecret }).catch(ignore(NotFound));
}

/** Copies the ClusterImageSets `clusters` reference that `to` lacks; answers the names copied. */
export async function copyImageSets(
  store: HiveStore,
  from: string,
  to: string,
  clusters: readonly ObjectRef[],
  also: readonly string[] = [],
): Promise<string[]> {
  const names = new Set(also);
  for (const ref of clusters) {
    const cd = store.cached<ClusterDeployment>('ClusterDeployment', ref);
    const name = cd?.spec.provisioning?.imageSetRef?.name;
    if (name) names.add(name);
  }
  const copied: string[] = [];
  for (const name of [...names].sort()) {
    if (store.cached('ClusterImageSet', { hub: to, name }) ?? (await store.get('ClusterImageSet', { hub: to, name })))
      continue;
    const source = await store.get<KubeObject>('ClusterImageSet', { hub: from, name });
    if (!source) continue;
    const { metadata, status: _status, ...rest } = source;
    await store
      .create('ClusterImageSet', to, {
        ...rest,
        metadata: { name, ...(metadata.labels ? { labels: metadata.labels } : {}) },
      })
      .catch(ignore(Conflict));
    copied.push(name);
  }
  return copied;
}
