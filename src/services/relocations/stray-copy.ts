// The copy Hive can leave on the destination when a move is called off late (REFERENCE.md §6): it creates the
// ClusterDeployment there last, then marks the source `complete` with an update. Our unlabel (an abort, a failure
// or a timeout) makes that update stale (409), and Hive's next pass finds no match and clears `outgoing`: the source
// stays, and so does the copy, which the destination's Hive takes up as soon as it clears `incoming`. The cluster is
// then on two hubs. It stays on the source (the move was called off); the copy goes, preserveOnDelete first, so the
// destination's Hive lets go of it without deprovisioning the cluster the source still runs.
import { NotFound } from '../../hive/errors.js';
import { readRelocationOrigin, relocationOf } from '../../hive/relocation-marks.js';
import type { RelocationCluster } from '../../hive/resources/relocation.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { cachedCd, destRef, waitFor, type MoveContext } from './move-context.js';

type Name = Pick<RelocationCluster, 'namespace' | 'name'>;

/** Hive's copy of the cluster this relocation labelled (it copies labels and annotations), not a namesake. */
export const isOurCopy = (m: MoveContext, d: ClusterDeployment | undefined): d is ClusterDeployment =>
  Boolean(d) && (relocationOf(d!) === m.id || readRelocationOrigin(d!.metadata.annotations)?.relocation === m.id);

export type StrayCopy = 'none' | 'removed' | 'stuck';

/**
 * Removes this relocation's copy from the destination, if one is there, and waits until it is gone. Call it once
 * the source is seen, live, without Hive's mark after the unlabel: Hive created any copy before it cleared the
 * mark, so a read now finds it, and no later pass makes one. 'stuck' when it is still there at the timeout.
 */
export async function removeStrayCopy(m: MoveContext, c: Name): Promise<StrayCopy> {
  const ref = destRef(m, c);
  let found = false;
  const settled = await retryOnConflict(async () => {
    const copy = await m.store.get<ClusterDeployment>('ClusterDeployment', ref);
    if (!isOurCopy(m, copy)) return true;
    found = true;
    if (copy.metadata.deletionTimestamp && copy.spec.preserveOnDelete) return false;
    try {
      // Conditional on what was judged here: the delete must find preserveOnDelete on the object it deletes.
      // Changed meanwhile (the destination's Hive clearing `incoming`): a conflict judges it again.
      const kept = copy.spec.preserveOnDelete
        ? copy
        : await m.store.mergePatch<ClusterDeployment>(
            'ClusterDeployment',
            ref,
            { spec: { preserveOnDelete: true } },
            { resourceVersion: copy.metadata.resourceVersion! },
          );
      if (!kept.metadata.deletionTimestamp)
        await m.store.delete('ClusterDeployment', ref, {
          uid: kept.metadata.uid!,
          resourceVersion: kept.metadata.resourceVersion!,
        });
      return false;
    } catch (err) {
      if (err instanceof NotFound) return true;
      throw err;
    }
  });
  if (settled) return found ? 'removed' : 'none';
  m.log.warn({ relocation: m.id, ...c, hub: m.to }, 'removing the copy Hive left on the destination');
  // The destination's Hive clears `incoming`, then its finalizer; gone from the cache, then confirmed live (the
  // cache may not have had the copy at all).
  const gone = await waitFor(m, async () => {
    if (isOurCopy(m, cachedCd(m, ref))) return undefined;
    return isOurCopy(m, await m.store.get<ClusterDeployment>('ClusterDeployment', ref)) ? undefined : true;
  });
  return gone ? 'removed' : 'stuck';
}
