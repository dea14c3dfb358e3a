// The cluster use cases behind /v1/hubs and /v1/clusters. Requests validate and check everything they can before
// writing anything; long work goes to jobs (job-handlers.ts) that follow Hive through informer events.
import { jobOf } from '../job-definition.js';
import { Conflict, NotFound } from '../../hive/errors.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HubStatus, JobView, NamespacedRef } from '../ports.js';
import { adminCredentials, adminKubeconfig, type AdminCredentials } from './access.js';
import { buildPlan } from './build-objects.js';
import { summarize, type ClusterSummary } from './cluster-summary.js';
import { createRequestIssues, throwIfIssues, type CreateClusterRequest } from './create-request.js';
import type { ClusterServiceDeps } from './deps.js';
import { setExpiry, type ExpiryRequest, type ExpiryResult } from './expiry.js';
import { createExpiryIssues, type PolicyHome } from './expiry-limits.js';
import { requestActor, type AuditOrigin } from '../expiry/expiry-record.js';
import { writeCreate } from './create-writes.js';
import { withQuotaExpiry } from './quota-expiry.js';
import { listClusters, type ClusterPage, type ListClustersQuery } from './list-clusters.js';
import { requestDelete, type DeleteOptions } from './delete-request.js';
import { checkAgainstHub } from './create-hub-checks.js';
import type { Operations } from '../operations/operations.js';
import { targetOf, type Requester } from '../operations/operation.js';
import { checkPowerable, desired, POWER_JOB_TYPES, writePowerState, type PowerTarget } from './power-change.js';
import { CREATE_JOB, HIBERNATE_JOB, RESUME_JOB } from './cluster-jobs.js';
import type { PowerPayload } from './power-job.js';

export interface ClusterService {
  hubs(): Promise<HubStatus[]>;
  /** `visible`: only the clusters the caller may see (filtered before paging). */
  list(q: ListClustersQuery, visible?: (hub: string, cd: ClusterDeployment) => boolean): ClusterPage;
  get(ref: NamespacedRef, opts?: { raw?: boolean }): Promise<ClusterSummary>;
  /**
   * `get`'s view when the cache holds the cluster, answered synchronously (no promise for the route to await);
   * undefined otherwise, and then `get` reads it live or says why not.
   */
  cachedView(ref: NamespacedRef): ClusterSummary | undefined;
  /**
   * `origin`: who creates it, and through which route, for the record of the expiry it is created with.
   * `requester`: who asks and the request's Idempotency-Key, for its Operation.
   */
  create(req: CreateClusterRequest, origin?: AuditOrigin, requester?: Requester): Promise<JobView>;
  hibernate(ref: NamespacedRef, requester?: Requester): Promise<JobView>;
  resume(ref: NamespacedRef, requester?: Requester): Promise<JobView>;
  delete(ref: NamespacedRef, opts?: DeleteOptions): Promise<JobView>;
  setExpiry(ref: NamespacedRef, req: ExpiryRequest, origin: AuditOrigin): Promise<ExpiryResult>;
  kubeconfig(ref: NamespacedRef): Promise<string>;
  credentials(ref: NamespacedRef): Promise<AdminCredentials>;
}

/**
 * A single cluster's view by cached object (without `raw`), weakly held: a watch event replaces the object, and its
 * view goes with it. Views are shared between answers (and the route keys its serialised body by them): nothing may
 * change them.
 */
const details = new WeakMap<ClusterDeployment, ClusterSummary>();

/** A cached object is never changed in place and its view is a function of it alone: summarised once. */
function viewOf(hub: string, cd: ClusterDeployment): ClusterSummary {
  let view = details.get(cd);
  if (view?.hub !== hub) {
    view = summarize(hub, cd, { detail: true });
    details.set(cd, view);
  }
  return view;
}

/**
 * With a PolicyHome, ExpiryPolicies cap the expiry a request may ask for (refused up front, not capped later).
 * Every 202 is accepted through `operations` (intent first: the change is made before the answer).
 */
export function createClusterService(
  deps: ClusterServiceDeps & PolicyHome & { operations: Operations },
): ClusterService {
  const { store, clock, log, operations } = deps;

  const powerConflict = (type: string, id: string) =>
    new Conflict(`a ${type} job (${id}) is already in progress for this cluster; try again when it ends`);
  const knownHub = (hub: string) => {
    if (!store.hubNames().includes(hub)) throw new NotFound(`hub "${hub}" is not configured`);
  };

  /** The cache first; a live read when the cache has not seen it (just created, or the hub's cache is not synced). */
  const find = async (ref: NamespacedRef): Promise<ClusterDeployment> => {
    knownHub(ref.hub);
    const cd =
      store.cached<ClusterDeployment>('ClusterDeployment', ref) ??
      (await store.get<ClusterDeployment>('ClusterDeployment', ref));
    if (!cd) throw new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
    return cd;
  };

  const power = async (ref: NamespacedRef, to: PowerTarget, requester?: Requester): Promise<JobView> => {
    const cd = await find(ref);
    checkPowerable(cd, ref, to);
    if (to === 'Running') deps.quotas?.admitResume(ref.hub, cd);
    const powerJob = to === 'Hibernating' ? HIBERNATE_JOB : RESUME_JOB;
    const type = powerJob.type;
    const payload: PowerPayload = {
      ...ref,
      target: to,
      before: { requested: desired(cd), ...(cd.status?.powerState ? { observed: cd.status.powerState } : {}) },
    };
    const job = await operations.accept({
      ...jobOf(powerJob, payload),
      target: targetOf('ClusterDeployment', ref),
      ...(requester ? { requester } : {}),
      // One power change per cluster at a time: the same again joins it, the other one waits for it to end.
      against: (other) =>
        !POWER_JOB_TYPES.includes(other.spec.type)
          ? undefined
          : other.spec.type === type
            ? 'join'
            : powerConflict(other.spec.type, other.metadata.name),
      write: (op) => writePowerState({ store, operations }, ref, to, op, cd, { type, refuse: powerConflict }),
    });
    log.info({ ...ref, jobId: job.id, type }, 'power change accepted');
    return job;
  };

  return {
    hubs: () => store.hubStatus(),

    list: (q, visible) => listClusters(store, q, visible),

    async get(ref, opts = {}) {
      const cd = await find(ref);
      if (opts.raw) return summarize(ref.hub, cd, { ...opts, detail: true });
      return viewOf(ref.hub, cd);
    },

    cachedView(ref) {
      const cd = store.cached<ClusterDeployment>('ClusterDeployment', ref);
      return cd && viewOf(ref.hub, cd);
    },

    async create(asked, origin, requester) {
      const issues = createRequestIssues(asked, clock.now());
      const { namespaceExists } = await checkAgainstHub(store, asked, issues);
      // Only an expiry that is valid so far can be checked against the policy cap.
      if (!issues.some((i) => ['expiresIn', 'expiresAt', 'labels'].includes(i.field.split('.')[0]!)))
        issues.push(...createExpiryIssues(deps, asked, clock.now()));
      throwIfIssues(issues);
      // The team's quotas (src/services/quotas), last before anything is written.
      const quota = withQuotaExpiry(deps, asked, clock.now());
      const req = quota.req;
      deps.quotas?.admitCluster(
        { hub: req.hub, namespace: req.namespace, name: req.name },
        {
          running: req.powerState !== 'Hibernating',
          ...(quota.lifetimeMs !== undefined ? { lifetimeMs: quota.lifetimeMs } : {}),
        },
      );
      const plan = buildPlan(req);
      if (origin && (req.expiresIn !== undefined || req.expiresAt !== undefined))
        plan.expiryActor = {
          ...requestActor(origin, {}),
          reason: quota.defaulted ?? 'given when the cluster was created',
        };
      const ref = { hub: req.hub, namespace: req.namespace, name: req.name };
      const job = await operations.accept({
        ...jobOf(CREATE_JOB, plan),
        target: targetOf('ClusterDeployment', ref),
        ...(requester ? { requester } : {}),
        // A create of this cluster still being accepted or installing: that one is the answer.
        against: (other) => (other.spec.type === CREATE_JOB.type ? 'join' : undefined),
        write: async () => ({ payload: await writeCreate({ store, log }, req, plan, namespaceExists) }),
      });
      log.info({ ...ref, jobId: job.id }, 'cluster created; its install is followed by a job');
      return job;
    },

    hibernate: (ref, requester) => power(ref, 'Hibernating', requester),
    resume: (ref, requester) => power(ref, 'Running', requester),

    async delete(ref, opts = {}) {
      return requestDelete({ store, log, operations }, ref, await find(ref), opts);
    },

    async setExpiry(ref, req, origin) {
      return setExpiry(deps, ref, await find(ref), req, origin);
    },

    async kubeconfig(ref) {
      return adminKubeconfig(deps, ref, await find(ref));
    },

    async credentials(ref) {
      return adminCredentials(deps, ref, await find(ref));
    },
  };
}
