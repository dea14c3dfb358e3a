// One cluster's move, step by step (REFERENCE.md §6): label it (Hive's ClusterRelocate then marks it `outgoing`,
// copies it and marks it `complete` before deleting the source), follow it until the source is gone and the copy is
// on the destination, or until Hive reports RelocationFailed; verify-move.ts then checks the copy and carries state.
// Each step reads Hive's objects and the Relocation's status, so a run after a crash continues where one stopped.
// A move called off (abort, failure, timeout) settles on one hub: a copy Hive left behind goes (stray-copy.ts).
import { ANNOTATIONS } from '../../hive/constants.js';
import { NotFound } from '../../hive/errors.js';
import {
  relocationOf,
  RELOCATION_LABEL,
  RELOCATION_ORIGIN_ANNOTATION,
  type RelocationOrigin,
} from '../../hive/relocation-marks.js';
import type { RelocationCluster } from '../../hive/resources/relocation.js';
import { requestedState } from '../../hive/schedule/index.js';
import { findCondition, type ClusterDeployment } from '../../hive/types.js';
import { clusterExpiry } from '../expiry/targets.js';
import { cachedCd, destRef, now, sourceRef, waitFor, type MoveContext } from './move-context.js';
import { isOurCopy, removeStrayCopy, type StrayCopy } from './stray-copy.js';
import { verifyMove } from './verify-move.js';

/** RelocationFailed=True reasons (clusterrelocate_controller.go): the move stops until someone acts. */
export const HIVE_FAILURES = new Set([
  'MoveFailed',
  'ClusterDeploymentMismatch',
  'MissingKubeconfigSecret',
  'NoConnection',
  'MultipleMatchingRelocates',
]);

type Name = Pick<RelocationCluster, 'namespace' | 'name'>;

const ignoreNotFound = (err: unknown) => {
  if (!(err instanceof NotFound)) throw err;
};

/** Labels the source CD for the relocation's ClusterRelocate, with the origin the destination needs. */
export async function startMove(m: MoveContext, c: Name): Promise<void> {
  const ref = sourceRef(m, c);
  const cd = cachedCd(m, ref) ?? (await m.store.get<ClusterDeployment>('ClusterDeployment', ref));
  if (!cd) {
    // Gone from the source: moved already (a run before this one labelled it), or deleted since preflight.
    const dest = await m.store.get<ClusterDeployment>('ClusterDeployment', destRef(m, c));
    if (isOurCopy(m, dest)) return;
    await m.status.cluster(c, {
      state: 'failed',
      hub: dest ? m.to : m.from,
      reason: 'NotFound',
      message: dest
        ? `ClusterDeployment ${c.namespace}/${c.name} is gone from hub ${m.from}; the one on hub ${m.to} is another`
        : `ClusterDeployment ${c.namespace}/${c.name} is on neither hub`,
      finishedAt: now(m),
    });
    return;
  }
  if (relocationOf(cd) === m.id) return;
  const expiry = clusterExpiry(m.from, cd);
  const origin: RelocationOrigin = {
    relocation: m.id,
    hub: m.from,
    ...(expiry ? { expiresAt: new Date(expiry.expiresAtMs).toISOString() } : {}),
    powerState: requestedState(cd),
  };
  await m.store.mergePatch('ClusterDeployment', ref, {
    metadata: {
      labels: { [RELOCATION_LABEL]: m.id },
      annotations: { [RELOCATION_ORIGIN_ANNOTATION]: JSON.stringify(origin) },
    },
  });
  await m.store.recordEvent('ClusterDeployment', ref, {
    type: 'Normal',
    reason: 'RelocationStarted',
    action: 'Relocate',
    message: `Relocation ${m.id} is moving this cluster from hub ${m.from} to hub ${m.to}`,
    key: `relocation/${m.id}/started`,
  });
}

/** Takes the relocation's marks off the source CD: with no match, Hive clears `outgoing` (an abort, §6). */
async function unlabel(m: MoveContext, c: Name): Promise<void> {
  await m.store
    .mergePatch('ClusterDeployment', sourceRef(m, c), {
      metadata: { labels: { [RELOCATION_LABEL]: null }, annotations: { [RELOCATION_ORIGIN_ANNOTATION]: null } },
    })
    .catch(ignoreNotFound);
}

/** The one hub the cluster is on: the source without Hive's mark, or only the destination; else undefined. */
function whereIs(m: MoveContext, c: Name): string | undefined {
  const s = cachedCd(m, sourceRef(m, c));
  if (s) return s.metadata.annotations?.[ANNOTATIONS.relocate] ? undefined : m.from;
  return isOurCopy(m, cachedCd(m, destRef(m, c))) ? m.to : undefined;
}

/**
 * After the unlabel: waits until Hive has let go of the cluster, then makes sure it is on that one hub. The source
 * without Hive's mark is confirmed live (the cache may still hold a version from before the unlabel, while a pass of
 * Hive's that read the match is copying), and a copy Hive made before it let go is removed from the destination.
 * `hub` is undefined when that did not happen in time.
 */
async function settle(m: MoveContext, c: Name): Promise<{ hub: string | undefined; copy: StrayCopy }> {
  const hub = await waitFor(m, async () => {
    const seen = whereIs(m, c);
    if (seen !== m.from) return seen;
    const live = await m.store.get<ClusterDeployment>('ClusterDeployment', sourceRef(m, c));
    // Gone since (moved after all): the cache says where once it has the deletion.
    if (!live) return undefined;
    return live.metadata.annotations?.[ANNOTATIONS.relocate] ? undefined : m.from;
  });
  if (hub !== m.from) return { hub, copy: 'none' };
  const copy = await removeStrayCopy(m, c);
  return { hub: copy === 'stuck' ? undefined : hub, copy };
}

const copyNote = (m: MoveContext, copy: StrayCopy) =>
  copy === 'removed'
    ? `; Hive had copied it already: the copy on hub ${m.to} was removed (preserveOnDelete: nothing deprovisioned)`
    : copy === 'stuck'
      ? `; Hive had copied it already and the copy on hub ${m.to} is not gone yet (preserveOnDelete set)`
      : '';

type Followed = { kind: 'copied' } | { kind: 'abort' } | { kind: 'failed'; reason: string; message: string };

/** Follows a labelled cluster until Hive has copied it, failed, or the relocation is aborted. */
export async function followMove(m: MoveContext, c: Name): Promise<'copied' | 'abort' | 'failed'> {
  const src = sourceRef(m, c);
  const dst = destRef(m, c);
  // Hive also completes onto a namesake with the same baseDomain, taken as the copy (§6 step 3): then the source
  // was seen `complete` before it went.
  let complete = false;
  const seen = await waitFor<Followed>(m, () => {
    const s = cachedCd(m, src);
    if (s?.metadata.annotations?.[ANNOTATIONS.relocate]?.endsWith('/complete')) complete = true;
    const d = cachedCd(m, dst);
    if (!s && d && (complete || isOurCopy(m, d))) return { kind: 'copied' };
    if (m.aborted()) return { kind: 'abort' };
    const failed = s && relocationOf(s) === m.id ? findCondition(s, 'RelocationFailed') : undefined;
    if (failed?.status === 'True' && failed.reason && HIVE_FAILURES.has(failed.reason))
      return { kind: 'failed', reason: failed.reason, message: failed.message ?? '' };
    return undefined;
  });
  if (seen?.kind === 'copied' || seen?.kind === 'abort') return seen.kind;
  await unlabel(m, c);
  const settled = await settle(m, c);
  const hub = settled.hub ?? m.from;
  const failure = seen ?? {
    reason: 'Timeout',
    message: `Hive did not move the cluster within ${Math.round(m.timeoutMs / 1000)} s; the move was called off`,
  };
  if (hub === m.to) return 'copied';
  await m.status.cluster(c, {
    state: 'failed',
    hub,
    reason: failure.reason,
    message: failure.message + copyNote(m, settled.copy),
    finishedAt: now(m),
  });
  await m.store.recordEvent('ClusterDeployment', src, {
    type: 'Warning',
    reason: 'RelocationFailed',
    action: 'Relocate',
    message: `Relocation ${m.id} to hub ${m.to} failed (${failure.reason}): ${failure.message}`,
    key: `relocation/${m.id}/failed`,
  });
  m.log.warn({ relocation: m.id, ...c, reason: failure.reason }, 'relocation of a cluster failed');
  return 'failed';
}

/** Aborting an in-flight move: remove the match (never delete a CD mid-move) and wait until it is on one hub. */
export async function abortMove(m: MoveContext, c: Name): Promise<void> {
  await unlabel(m, c);
  const { hub, copy } = await settle(m, c);
  if (hub === m.to) return verifyMove(m, c);
  if (hub === m.from) {
    const message = copy === 'removed' ? 'aborted' + copyNote(m, copy) : 'aborted before Hive moved it';
    await m.status.cluster(c, { state: 'aborted', hub, message, finishedAt: now(m) });
    return;
  }
  await m.status.cluster(c, {
    state: 'failed',
    hub: m.from,
    reason: 'Timeout',
    message: 'aborted, but Hive did not settle it on one hub in time: check both hubs' + copyNote(m, copy),
    finishedAt: now(m),
  });
}
