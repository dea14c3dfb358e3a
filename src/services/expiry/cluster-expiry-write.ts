// Writing a cluster's expiry: Hive's own delete-after (a duration from creationTimestamp, REFERENCE.md §2.6, so
// Hive enforces it even while Beekeeper is down) and the history entry in one patch, conditional on the version
// the change was decided from; then the audit line and the Event (expiry-record.ts). Hive writes status often, so
// a conflict re-reads the object and decides again: the change always fits the object it lands on.
import { ANNOTATIONS } from '../../hive/constants.js';
import { deleteAfterFor, expiresAt } from '../../hive/delete-after.js';
import { NotFound } from '../../hive/errors.js';
import {
  appendHistory,
  changeAction,
  EXPIRY_HISTORY_ANNOTATION,
  type ExpiryHistoryEntry,
} from '../../hive/expiry/history.js';
import type { Clock, HiveStore, ObjectRef, ServiceLog } from '../ports.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { announceExpiryChange, expiryEntry, type ExpiryActor } from './expiry-record.js';
import { clusterExpiry } from './targets.js';
import type { ClusterDeployment } from '../../hive/types.js';

type Cd = ClusterDeployment;

export interface ExpiryDecision {
  /** The new expiry; null removes it. */
  atMs: number | null;
  /** A policy's default or cap; a person's change is named by how it moves the expiry. */
  action?: 'default' | 'cap';
  /** The expiry the cluster was created with: recorded as set, from nothing. */
  initial?: boolean;
  /** Who and why, when the decision names them itself (a policy). */
  by?: string;
  reason?: string;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

async function live(store: HiveStore, ref: ObjectRef): Promise<Cd> {
  const cd = await store.get<Cd>('ClusterDeployment', ref);
  if (!cd) throw new NotFound(`cluster ${ref.hub}/${ref.namespace}/${ref.name} not found`);
  return cd;
}

/**
 * Applies `decide` to the cluster (from `first`, else a live read) and writes its decision, unless it changes
 * nothing. `decide` throws to refuse (Invalid), or returns undefined for nothing to do. Returns the cluster as
 * written and the history entry, if any.
 */
export async function writeClusterExpiry(
  deps: { store: HiveStore; clock: Clock; log: ServiceLog },
  ref: ObjectRef,
  first: Cd | undefined,
  decide: (cd: Cd) => ExpiryDecision | undefined,
  actor: ExpiryActor,
): Promise<{ cd: Cd; entry?: ExpiryHistoryEntry }> {
  const written = await retryOnConflict(async (attempt) => {
    const cd = attempt === 1 && first ? first : await live(deps.store, ref);
    const decision = decide(cd);
    if (!decision) return { cd };
    const created = cd.metadata.creationTimestamp ?? '';
    const fromMs = decision.initial ? undefined : clusterExpiry(ref.hub, cd)?.expiresAtMs;
    const deleteAfter = decision.atMs === null ? null : deleteAfterFor(created, new Date(decision.atMs));
    // What is recorded is when Hive will delete: delete-after counts whole seconds, rounded up.
    const toMs = deleteAfter === null ? undefined : expiresAt(created, deleteAfter)?.getTime();
    const action = decision.action ?? (decision.initial ? 'set' : changeAction(fromMs, toMs));
    if (!action) return { cd };
    const who = {
      ...actor,
      ...(decision.by !== undefined ? { by: decision.by } : {}),
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    };
    const entry = expiryEntry(deps.clock.now(), who, action, iso(fromMs), iso(toMs));
    const patched = await deps.store.mergePatch<Cd>(
      'ClusterDeployment',
      ref,
      {
        metadata: {
          annotations: {
            [ANNOTATIONS.deleteAfter]: deleteAfter,
            [EXPIRY_HISTORY_ANNOTATION]: appendHistory(cd.metadata.annotations, entry),
          },
        },
      },
      { resourceVersion: cd.metadata.resourceVersion },
    );
    return { cd: patched, entry, deleteAfter };
  });
  // Once, after the write landed: the audit line and the Event are not part of what a conflict tries again.
  if (!written.entry) return { cd: written.cd };
  await announceExpiryChange(deps, 'ClusterDeployment', ref, written.entry, written.deleteAfter ?? null);
  return { cd: written.cd, entry: written.entry };
}
