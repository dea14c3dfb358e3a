// The cluster use cases behind /v1/hubs and /v1/clusters. Requests validate and check everything they can before
// writing anything; long work goes to jobs (job-handlers.ts) that follow Hive through informer events.
import { ANNOTATIONS } from '../../hive/constants.js';
import { Conflict, NotFound, type FieldIssue } from '../../hive/errors.js';
import { isTruthy } from '../../hive/go-bool.js';
import type { ClusterDeployment, ClusterImageSet, Secret } from '../../hive/types.js';
import type { HubStatus, JobTarget, JobView } from '../ports.js';
import { adminCredentials, adminKubeconfig, type AdminCredentials } from './access.js';
import { buildPlan, isSecretFor, referencedSecrets, writtenSecretNames } from './build-objects.js';
import { summarize, type ClusterSummary } from './cluster-summary.js';
import { createRequestIssues, throwIfIssues, type CreateClusterRequest } from './create-request.js';
import type { ClusterServiceDeps } from './deps.js';
import { setExpiry, type ExpiryRequest, type ExpiryResult } from './expiry.js';
import { createExpiryIssues, type PolicyHome } from './expiry-limits.js';
import { requestActor, type AuditOrigin } from '../expiry/expiry-record.js';
import { writeInlineSecrets } from './inline-secrets.js';
import { listClusters, type ClusterPage, type ListClustersQuery } from './list-clusters.js';
import type { DeletePayload } from './delete-job.js';
import type { PowerPayload, PowerTarget } from './power-job.js';

export interface ClusterRef {
  hub: string;
  namespace: string;
  name: string;
}

export interface ClusterService {
  hubs(): Promise<HubStatus[]>;
  list(q: ListClustersQuery): ClusterPage;
  get(ref: ClusterRef, opts?: { raw?: boolean }): Promise<ClusterSummary>;
  /** `origin`: who creates it, and through which route, for the record of the expiry it is created with. */
  create(req: CreateClusterRequest, origin?: AuditOrigin): Promise<JobView>;
  hibernate(ref: ClusterRef): Promise<JobView>;
  resume(ref: ClusterRef): Promise<JobView>;
  delete(ref: ClusterRef, opts?: { liftProtection?: boolean }): Promise<JobView>;
  setExpiry(ref: ClusterRef, req: ExpiryRequest, origin: AuditOrigin): Promise<ExpiryResult>;
  kubeconfig(ref: ClusterRef): Promise<string>;
  credentials(ref: ClusterRef): Promise<AdminCredentials>;
}

/** Job ids and dedup ids may not contain `:` (BullMQ); hubs, namespaces and names never do. */
export const dedupIds = {
  power: (r: ClusterRef) => `power.${r.hub}.${r.namespace}.${r.name}`,
  create: (r: ClusterRef) => `create.${r.hub}.${r.namespace}.${r.name}`,
  delete: (r: ClusterRef) => `delete.${r.hub}.${r.namespace}.${r.name}`,
};

const target = (r: ClusterRef): JobTarget => ({ kind: 'ClusterDeployment', hub: r.hub, namespace: r.namespace, name: r.name });

/** With a PolicyHome, ExpiryPolicies cap the expiry a request may ask for (refused up front, not capped later). */
export function createClusterService(deps: ClusterServiceDeps & PolicyHome): ClusterService {
  const { store, queue, clock, log } = deps;

  const knownHub = (hub: string) => {
    if (!store.hubNames().includes(hub)) throw new NotFound(`hub "${hub}" is not configured`);
  };

  /** The cache first; a live read when the cache has not seen it (just created, or the hub's cache is not synced). */
  const find = async (ref: ClusterRef): Promise<ClusterDeployment> => {
    knownHub(ref.hub);
    const cd = store.cached<ClusterDeployment>('ClusterDeployment', ref) ?? (await store.get<ClusterDeployment>('ClusterDeployment', ref));
    if (!cd) throw new NotFound(`ClusterDeployment ${ref.namespace}/${ref.name} not found on hub ${ref.hub}`);
    return cd;
  };

  /**
   * Checks only a live look at the hub can make, for the fields that are valid so far; added to `issues` so the
   * caller hears about every problem at once. An existing cluster is a 409 of its own.
   */
  const checkAgainstHub = async (req: CreateClusterRequest, issues: FieldIssue[]): Promise<{ namespaceExists: boolean }> => {
    const bad = (field: string) => issues.some((i) => i.field === field || i.field.startsWith(`${field}.`));
    if (!store.hubNames().includes(req.hub)) {
      if (!bad('hub')) issues.push({ field: 'hub', reason: `unknown hub "${req.hub}"; configured: ${store.hubNames().join(', ')}` });
      return { namespaceExists: false };
    }
    if (bad('namespace')) return { namespaceExists: false };
    const ref = { hub: req.hub, namespace: req.namespace, name: req.name };
    if (!bad('name') && (store.cached('ClusterDeployment', ref) ?? (await store.get('ClusterDeployment', ref)))) {
      throw new Conflict(`ClusterDeployment ${req.namespace}/${req.name} already exists on hub ${req.hub}`);
    }
    const ns = await store.get('Namespace', { hub: req.hub, name: req.namespace });
    if (ns?.metadata.deletionTimestamp) issues.push({ field: 'namespace', reason: 'the namespace is being deleted' });
    if (!ns && !req.createNamespace) issues.push({ field: 'namespace', reason: `does not exist on hub ${req.hub}; set createNamespace: true to create it` });
    // Checked before anything is written, so a request refused for it leaves nothing behind; Beekeeper never
    // overwrites or removes a Secret it did not write for this cluster.
    if (ns && !bad('name')) {
      for (const name of writtenSecretNames(req)) {
        const secret = await store.get<Secret>('Secret', { hub: req.hub, namespace: req.namespace, name });
        if (secret && !isSecretFor(secret, req.name)) {
          throw new Conflict(
            `Secret ${req.namespace}/${name} already exists and is not Beekeeper's for this cluster; Beekeeper leaves it alone ` +
              '(choose another cluster name, or refer to an existing Secret with pullSecretRef or credentialsSecretRef)',
          );
        }
      }
    }
    if (req.imageSet && !bad('imageSet')) {
      const imageSet = store.cached<ClusterImageSet>('ClusterImageSet', { hub: req.hub, name: req.imageSet }) ?? (await store.get('ClusterImageSet', { hub: req.hub, name: req.imageSet }));
      if (!imageSet) issues.push({ field: 'imageSet', reason: `no ClusterImageSet named ${req.imageSet} on hub ${req.hub}` });
    }
    for (const { field, name } of referencedSecrets(req)) {
      if (bad(field)) continue;
      const secret = ns ? await store.get('Secret', { hub: req.hub, namespace: req.namespace, name }) : undefined;
      if (!secret) issues.push({ field, reason: `no Secret named ${name} in namespace ${req.namespace}` });
    }
    return { namespaceExists: !!ns };
  };

  const power = async (ref: ClusterRef, to: PowerTarget): Promise<JobView> => {
    const cd = await find(ref);
    if (cd.metadata.deletionTimestamp) throw new Conflict(`ClusterDeployment ${ref.namespace}/${ref.name} is being deleted`);
    if (!cd.spec.installed) throw new Conflict(`ClusterDeployment ${ref.namespace}/${ref.name} is not installed yet; Hive changes the power state only after install`);
    const type = to === 'Hibernating' ? 'cluster.hibernate' : 'cluster.resume';
    const payload: PowerPayload = { ...ref, target: to };
    const job = await queue.enqueue(type, { ...payload }, { dedupId: dedupIds.power(ref), target: target(ref) });
    if (job.type !== type) throw new Conflict(`a ${job.type} job (${job.id}) is already in progress for this cluster; try again when it ends`);
    log.info({ ...ref, jobId: job.id, type }, 'power change queued');
    return job;
  };

  return {
    hubs: () => store.hubStatus(),

    list: (q) => listClusters(store, q),

    async get(ref, opts = {}) {
      return summarize(ref.hub, await find(ref), { ...opts, detail: true });
    },

    async create(req, origin) {
      const issues = createRequestIssues(req, clock.now());
      const { namespaceExists } = await checkAgainstHub(req, issues);
      // Only an expiry that is valid so far can be checked against the policy cap.
      if (!issues.some((i) => ['expiresIn', 'expiresAt', 'labels'].includes(i.field.split('.')[0]!))) issues.push(...createExpiryIssues(deps, req, clock.now()));
      throwIfIssues(issues);
      const plan = buildPlan(req);
      if (origin && (req.expiresIn !== undefined || req.expiresAt !== undefined)) plan.expiryActor = { ...requestActor(origin, {}), reason: 'given when the cluster was created' };
      const writes = await writeInlineSecrets({ store, log }, req, namespaceExists);
      const ref = { hub: req.hub, namespace: req.namespace, name: req.name };
      const job = await queue.enqueue('cluster.create', { ...plan }, { dedupId: dedupIds.create(ref), target: target(ref) }).catch(async (err: unknown) => {
        await writes.undo();
        throw err;
      });
      log.info({ ...ref, jobId: job.id }, 'cluster create queued');
      return job;
    },

    hibernate: (ref) => power(ref, 'Hibernating'),
    resume: (ref) => power(ref, 'Running'),

    async delete(ref, opts = {}) {
      const cd = await find(ref);
      const protectedDelete = isTruthy(cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]);
      if (protectedDelete && !cd.metadata.deletionTimestamp && !opts.liftProtection) {
        throw new Conflict(
          `ClusterDeployment ${ref.namespace}/${ref.name} is protected by ${ANNOTATIONS.protectedDelete}=${cd.metadata.annotations?.[ANNOTATIONS.protectedDelete]}; ` +
            'repeat with liftProtection=true to lift the protection and delete it',
        );
      }
      const payload: DeletePayload = { ...ref, ...(cd.metadata.uid ? { uid: cd.metadata.uid } : {}), ...(opts.liftProtection ? { liftProtection: true } : {}) };
      const job = await queue.enqueue('cluster.delete', { ...payload }, { dedupId: dedupIds.delete(ref), target: target(ref) });
      log.info({ ...ref, jobId: job.id, liftProtection: opts.liftProtection === true }, 'cluster delete queued');
      return job;
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

