// Beekeeper's own state of a cluster, carried to the destination hub once Hive has moved it. Hive copies the
// ClusterDeployment's annotations (the expiry history, the warnings sent, the origin annotation), but the copy gets
// a new creationTimestamp and delete-after counts from it (REFERENCE.md §6 caveats): the annotation is rewritten so
// the absolute deadline is the one the cluster had. ClusterOverrides name their cluster's hub (in spec, labels and
// name): each is re-created for the destination and the old one deleted.
import { ANNOTATIONS } from '../../hive/constants.js';
import { deleteAfterFor } from '../../hive/delete-after.js';
import { Conflict, NotFound } from '../../hive/errors.js';
import { RELOCATION_LABEL, RELOCATION_ORIGIN_ANNOTATION, type RelocationOrigin } from '../../hive/relocation-marks.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore, NamespacedRef, StateLocation } from '../ports.js';
import { CLUSTER_LABELS, overrideName, type ClusterOverride } from '../schedules/override-store.js';

/**
 * On the destination CD: delete-after for the origin's absolute expiry, and the relocation's label and origin
 * annotation removed (from then on, schedules and expiry treat it as any cluster of that hub). One patch,
 * conditional on the version read, so it never lands on a copy it was not computed for.
 */
export async function settleOnDestination(
  store: HiveStore,
  ref: NamespacedRef,
  cd: ClusterDeployment,
  origin: RelocationOrigin | undefined,
): Promise<ClusterDeployment> {
  const annotations: Record<string, string | null> = { [RELOCATION_ORIGIN_ANNOTATION]: null };
  if (origin?.expiresAt) {
    const created = cd.metadata.creationTimestamp ?? '';
    // A deadline that passed during the move: Hive deletes at once, as it would have on the source.
    const at = Math.max(Date.parse(origin.expiresAt), Date.parse(created));
    annotations[ANNOTATIONS.deleteAfter] = deleteAfterFor(created, new Date(at));
  }
  return store.mergePatch<ClusterDeployment>(
    'ClusterDeployment',
    ref,
    { metadata: { labels: { [RELOCATION_LABEL]: null }, annotations } },
    { resourceVersion: cd.metadata.resourceVersion },
  );
}

/** Re-creates the cluster's overrides for hub `to` (status too) and deletes the old ones; answers the new names. */
export async function retargetOverrides(
  store: HiveStore,
  state: StateLocation,
  cluster: { from: string; to: string; namespace: string; name: string },
): Promise<string[]> {
  const { from, to, namespace, name } = cluster;
  const old = store
    .cachedList<ClusterOverride>('ClusterOverride', { hub: state.stateHub, namespace: state.stateNamespace })
    .map((o) => o.object)
    .filter(
      (o) => o.spec?.cluster?.hub === from && o.spec.cluster.namespace === namespace && o.spec.cluster.name === name,
    );
  const moved: string[] = [];
  for (const o of old) {
    const newName = overrideName(to, namespace, name, o.spec.type);
    const ref = { hub: state.stateHub, namespace: state.stateNamespace, name: newName };
    await store
      .create<ClusterOverride>('ClusterOverride', state.stateHub, {
        apiVersion: o.apiVersion,
        kind: 'ClusterOverride',
        metadata: {
          name: newName,
          namespace: state.stateNamespace,
          labels: { ...o.metadata.labels, [CLUSTER_LABELS.hub]: to },
          ...(o.metadata.annotations ? { annotations: o.metadata.annotations } : {}),
        },
        spec: { ...o.spec, cluster: { hub: to, namespace, name } },
      })
      .catch((err: unknown) => {
        if (!(err instanceof Conflict)) throw err;
      });
    if (o.status) await store.mergePatch('ClusterOverride', ref, { status: o.status }, { subresource: 'status' });
    await store
      .delete('ClusterOverride', { hub: state.stateHub, namespace: state.stateNamespace, name: o.metadata.name })
      .catch((err: unknown) => {
        if (!(err instanceof NotFound)) throw err;
      });
    moved.push(newName);
  }
  return moved;
}
