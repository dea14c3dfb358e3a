// The pools use case (REFERENCE.md §4): create a ClusterPool with its install-config template, read it with
// Hive's counts in plain words, change its settings, delete it when nothing claimed holds it.
import { Conflict, Invalid, NotFound, invalid } from '../../hive/errors.js';
import { deletionBlockers } from '../../hive/pools/pool-clusters.js';
import type { ClusterImageSet, ClusterPool } from '../../hive/pools/types.js';
import { Type as T } from 'typebox';
import { defineJob, handleJob, jobOf, refFields, type JobRegistration } from '../job-definition.js';
import type { Clock, HiveStore, JobQueue, JobView, NamespacedRef } from '../ports.js';
import type { AuditLog } from '../claims/audit.js';
import { markAnnotations, type IdempotencyMark } from '../idempotency/mark.js';
import type { Operations } from '../operations/operations.js';
import { targetOf, type Requester } from '../operations/operation.js';
import { cachedPool, loadPool, poolClusters } from './pool-lookup.js';
import {
  checkCreateRequest,
  clusterPool,
  settingsIssues,
  settingsPatch,
  templateSecret,
  type PoolCreateRequest,
  type PoolSettings,
} from './pool-request.js';
import { buildPoolView, type PoolView } from './pool-view.js';
import type { QuotaGuard } from '../quotas/quota-guard.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import { refId } from '../../hive/object-ref.js';

export const POOL_DELETE_JOB = defineJob({
  type: 'pool.delete',
  payload: T.Object({ ...refFields(), uid: T.Optional(T.String()) }),
  class: 'interactive',
});
const POOL_DELETE_WAIT_MS = 3 * 3600_000;

export interface PoolServiceDeps {
  store: HiveStore;
  queue: JobQueue;
  clock: Clock;
  log: AuditLog;
  /** Deletes are accepted as Operations (intent first). */
  operations: Operations;
  /** Team quotas (src/services/quotas): a pool's growth counts toward clusters; without it nothing is limited. */
  quotas?: QuotaGuard;
}

async function checkReferences(store: HiveStore, req: PoolCreateRequest): Promise<void> {
  const issues: Array<{ field: string; reason: string }> = [];
  if (!store.hubNames().includes(req.hub))
    throw invalid('hub', `no hub named ${req.hub} (hubs: ${store.hubNames().join(', ')})`);
  if (cachedPool(store, req)) throw new Conflict(`pool ${refId(req)} already exists`);
  if (!(await store.get('Namespace', { hub: req.hub, name: req.namespace })))
    issues.push({ field: 'namespace', reason: `namespace ${req.namespace} does not exist on hub ${req.hub}` });
  if (!store.cached<ClusterImageSet>('ClusterImageSet', { hub: req.hub, name: req.imageSetName })) {
    issues.push({
      field: 'imageSetName',
      reason: `ClusterImageSet ${req.imageSetName} does not exist on hub ${req.hub}`,
    });
  }
  const secrets: Array<[string, string | undefined]> = [
    ['platform.credentialsSecretRef', req.platform.credentialsSecretRef],
    ['pullSecretRef', req.pullSecretRef],
    ['installConfigSecretTemplateRef', req.installConfigSecretTemplateRef],
  ];
  for (const [field, name] of secrets) {
    if (name && !(await store.get('Secret', { hub: req.hub, namespace: req.namespace, name }))) {
      issues.push({ field, reason: `Secret ${req.namespace}/${name} does not exist on hub ${req.hub}` });
    }
  }
  if (issues.length) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
}

/** A pool's size and cap, after `settings` when given (a PATCH's `unset: ['maxSize']` lifts the cap). */
function poolShape(spec: ClusterPool['spec'], settings?: PoolSettings): { size: number; maxSize?: number } {
  const size = settings?.size ?? spec.size;
  const maxSize = settings?.unset?.includes('maxSize') ? undefined : (settings?.maxSize ?? spec.maxSize);
  return { size, ...(maxSize !== undefined ? { maxSize } : {}) };
}

export function createPoolService(deps: PoolServiceDeps) {
  const { store } = deps;

  /** `mark`: the request's Idempotency-Key, recorded on the pool. */
  async function create(req: PoolCreateRequest, actor?: string, mark?: IdempotencyMark): Promise<PoolView> {
    checkCreateRequest(req);
    await checkReferences(store, req);
    deps.quotas?.admitPool(req, undefined, {
      size: req.size ?? 0,
      ...(req.maxSize !== undefined ? { maxSize: req.maxSize } : {}),
    });
    const built = clusterPool(req);
    const marks = markAnnotations(mark);
    const pool: ClusterPool = Object.keys(marks).length
      ? { ...built, metadata: { ...built.metadata, annotations: { ...built.metadata.annotations, ...marks } } }
      : built;
    await store.create('ClusterPool', req.hub, pool, { dryRun: true });
    const secret = req.installConfigSecretTemplateRef ? undefined : templateSecret(req);
    if (secret) await store.create('Secret', req.hub, secret);
    let created: ClusterPool;
    try {
      created = await store.create<ClusterPool>('ClusterPool', req.hub, pool);
    } catch (err) {
      if (secret)
        await store
          .delete('Secret', { hub: req.hub, namespace: req.namespace, name: secret.metadata.name })
          .catch(() => undefined);
      throw err;
    }
    if (secret) {
      // Owned by the pool, so deleting the pool also removes the template Beekeeper wrote for it.
      await store.mergePatch(
        'Secret',
        { hub: req.hub, namespace: req.namespace, name: secret.metadata.name },
        {
          metadata: {
            ownerReferences: [
              {
                apiVersion: created.apiVersion ?? 'hive.openshift.io/v1',
                kind: 'ClusterPool',
                name: created.metadata.name,
                uid: created.metadata.uid!,
              },
            ],
          },
        },
      );
    }
    deps.log.info({ decision: 'pool', action: 'pool.create', pool: refId(req), actor, size: req.size }, 'pool created');
    return buildPoolView(store, req.hub, created);
  }

  async function update(ref: NamespacedRef, settings: PoolSettings, actor?: string): Promise<PoolView> {
    const patch = settingsPatch(settings);
    if (Object.keys(patch).length === 0)
      throw invalid(
        'body',
        'nothing to change: give size, runningCount, maxSize, maxConcurrent, hibernateAfter, claimLifetime, labels, clusterLabels or unset',
      );
    // Checked against the live pool and written only if it is still that version: Hive's own status writes
    // bump the version often, so a conflict just means read again.
    const patched = await retryOnConflict(async () => {
      const pool = await store.get<ClusterPool>('ClusterPool', ref);
      if (!pool) throw new NotFound(`pool ${refId(ref)} not found`);
      const current: PoolSettings = {
        size: pool.spec.size,
        maxSize: pool.spec.maxSize,
        claimLifetime: pool.spec.claimLifetime,
      };
      const issues = settingsIssues(settings, current);
      if (issues.length) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
      deps.quotas?.admitPool(ref, poolShape(pool.spec), poolShape(pool.spec, settings));
      return store.mergePatch<ClusterPool>('ClusterPool', ref, patch, {
        resourceVersion: pool.metadata.resourceVersion,
      });
    });
    deps.log.info({ decision: 'pool', action: 'pool.update', pool: refId(ref), actor, changes: patch }, 'pool updated');
    return buildPoolView(store, ref.hub, patched);
  }

  /** Intent first (issue 9): the pool is deleted before the answer; its job follows Hive removing its clusters. */
  async function remove(
    ref: NamespacedRef,
    actor?: string,
    requester?: Requester,
  ): Promise<{ pool: PoolView; job: JobView }> {
    const pool = await loadPool(store, ref);
    const blockers = deletionBlockers(poolClusters(store, ref));
    if (blockers.length && !pool.metadata.deletionTimestamp) {
      // Hive would accept the delete and then hang on its finalizer until every claim is gone (REFERENCE.md §4.3).
      const list = blockers
        .map((b) => `claim ${ref.hub}/${ref.namespace}/${b.claim} (cluster ${ref.hub}/${b.cluster})`)
        .join(', ');
      throw new Conflict(
        `pool ${refId(ref)} still has ${blockers.length} claimed cluster${blockers.length === 1 ? '' : 's'}: ${list}. ` +
          'Hive keeps a pool until every cluster it made is gone, so release those claims first (DELETE /v1/claims/{hub}/{namespace}/{name}).',
      );
    }
    const uid = pool.metadata.uid;
    const job = await deps.operations.accept({
      ...jobOf(POOL_DELETE_JOB, { ...ref, ...(uid ? { uid } : {}) }),
      target: targetOf('ClusterPool', ref, uid),
      requester: { ...(actor ? { by: actor } : {}), ...requester },
      against: (other) => (other.spec.type === POOL_DELETE_JOB.type ? 'join' : undefined),
      write: async () => {
        if (pool.metadata.deletionTimestamp) return;
        await store
          .delete('ClusterPool', ref, { ...(uid ? { uid } : {}), propagation: 'Background' })
          .catch((err: unknown) => {
            if (!(err instanceof NotFound)) throw err;
          });
        deps.log.info({ decision: 'pool', action: 'pool.delete', pool: refId(ref), actor }, 'pool deleted');
      },
    });
    const view = buildPoolView(store, ref.hub, {
      ...pool,
      metadata: {
        ...pool.metadata,
        deletionTimestamp: pool.metadata.deletionTimestamp ?? new Date(deps.clock.now()).toISOString(),
      },
    });
    return { pool: view, job };
  }

  return {
    /** `visible`: only the pools the caller may see. */
    list(
      filter: { hub?: string; namespace?: string; labelSelector?: string } = {},
      visible?: (ref: NamespacedRef) => boolean,
    ): PoolView[] {
      return store
        .cachedList<ClusterPool>('ClusterPool', filter)
        .filter(
          ({ hub, object }) =>
            !visible || visible({ hub, namespace: object.metadata.namespace!, name: object.metadata.name }),
        )
        .map(({ hub, object }) => buildPoolView(store, hub, object, false))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    async get(ref: NamespacedRef): Promise<PoolView> {
      return buildPoolView(store, ref.hub, await loadPool(store, ref));
    },
    create,
    update,
    remove,
  };
}

export type PoolService = ReturnType<typeof createPoolService>;

/** Follows a deleted pool until Hive has removed its unclaimed clusters and its finalizer. */
export function poolJobs(deps: { store: HiveStore }): JobRegistration[] {
  return [
    handleJob(POOL_DELETE_JOB, async (payload, ctx) => {
      const ref = { hub: payload.hub, namespace: payload.namespace, name: payload.name };
      const pool = await deps.store.get<ClusterPool>('ClusterPool', ref);
      // A pool made since under the same name is someone else's.
      if (!pool || (payload.uid && pool.metadata.uid !== payload.uid)) return { deleted: refId(ref) };
      // Converge: the job of a request that stopped before its delete still deletes.
      if (!pool.metadata.deletionTimestamp)
        await deps.store.delete('ClusterPool', ref, {
          ...(pool.metadata.uid ? { uid: pool.metadata.uid } : {}),
          propagation: 'Background',
        });
      let last = -1;
      await deps.store.waitFor<ClusterPool, true>(
        'ClusterPool',
        ref,
        (pool) => {
          if (!pool) return true;
          const left = poolClusters(deps.store, ref).length;
          if (left !== last) {
            last = left;
            void ctx.step('Deleting', `Hive is removing the pool's clusters: ${left} left`);
          }
          return undefined;
        },
        { timeoutMs: POOL_DELETE_WAIT_MS, signal: ctx.signal },
      );
      return { deleted: refId(ref) };
    }),
  ];
}
