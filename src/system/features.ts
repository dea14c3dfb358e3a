// The features Beekeeper is made of. Each one turns the shared dependencies into route plugins (api role), job
// handlers (worker role) and timers or watchers that only enqueue (scheduler role). A new feature adds one entry.
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../clock.js';
import type { TeamDirectory } from '../auth/team-directory.js';
import type { Config } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import type { BullJobQueue } from '../jobs/job-queue.js';
import type { Logger } from '../logger.js';
import type { JobRegistration } from '../services/job-definition.js';
import type { CachedKind, HiveStore, KubeObject } from '../services/ports.js';
import type { Operations } from '../services/operations/operations.js';
import type { Operation } from '../services/operations/operation.js';
import { claimRefOf } from '../services/claims/claim-view.js';
import { createClusterService } from '../services/clusters/cluster-service.js';
import { clusterJobs } from '../services/clusters/job-handlers.js';
import { clusterRoutes } from '../http/routes/clusters.js';
import { hubRoutes } from '../http/routes/hubs.js';
import { createClaimService, claimJobs, startClaimReaper } from '../services/claims/claim-service.js';
import { watchClaimWaits } from '../services/claims/claim-wait-metric.js';
import type { HubHealthTracker } from '../services/hubs/hub-health.js';
import { createPoolService, poolJobs } from '../services/pools/pool-service.js';
import { claimRoutes } from '../http/routes/claims.js';
import { poolRoutes } from '../http/routes/pools.js';
import { createPoolClaimMetrics } from '../http/routes/pool-claim-metrics.js';
import { createScheduleService } from '../services/schedules/schedule-service.js';
import { createExpiryService } from '../services/expiry/expiry-service.js';
import { createAddressPolicy } from '../services/notify/address-policy.js';
import { createWebhookService } from '../services/notify/webhook-service.js';
import { scheduleRoutes } from '../http/routes/schedules.js';
import { expiryRoutes } from '../http/routes/expiry.js';
import { startScheduleTimers } from '../schedules/schedule-timers.js';
import { startExpiryTimers } from '../schedules/expiry-timers.js';
import { expiryRepairers } from '../schedules/expiry-repairs.js';
import { scheduleRepairers } from '../schedules/schedule-repairs.js';
import { heartbeatRepairer } from '../services/claims/heartbeat-repair.js';
import type { Repairer } from '../services/resync/repair.js';
import { readResyncRecord } from '../services/resync/resync-record.js';
import { resyncRoutes } from '../http/routes/resync.js';
import type { ClusterOverride } from '../services/schedules/override-store.js';
import { NotFound } from '../hive/errors.js';
import { OPEN_CALLER } from '../auth/caller.js';
import { relocationFeature } from './relocation-feature.js';
import { exportKubeconfig } from '../kube/export-kubeconfig.js';
import { relocationRunJob } from '../services/relocations/relocation-run.js';
import { createRelocationMetrics } from '../http/routes/relocation-metrics.js';
import { createPreflight } from '../services/relocations/preflight.js';
import { createQuotaGuard } from '../services/quotas/quota-guard.js';
import { teamRoutes } from '../http/routes/teams.js';

/** What every feature gets to build its services, routes, handlers and timers from. */
export interface FeatureDeps {
  config: Config;
  store: HiveStore;
  /** Answers for jobs Redis lost from their Operations (services/operations/job-ledger.ts). */
  queue: BullJobQueue;
  /** Where 202 requests are accepted (intent first). */
  operations: Operations;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  /** Who owns which namespaces, pools and clusters (src/auth/team-directory.ts). */
  teams: TeamDirectory;
  /** Each hub's reachability from the periodic probe (services/hubs/hub-health.ts), for GET /v1/hubs. */
  hubs: HubHealthTracker;
  /**
   * True while this process holds the scheduler lease (src/redis/lease.ts): what must happen once fleet-wide
   * (the claim-wait histogram) happens only here. Always false outside the scheduler role.
   */
  leader: () => boolean;
}

/** The first answer to an Idempotency-Key, rendered again from what the request created. */
export type Replayer = (hub: string, obj: KubeObject) => Promise<{ status: number; location?: string; body: unknown }>;

export interface Feature {
  routes?: FastifyPluginAsync[];
  /** The job types this feature runs, each with its handler (worker role); every catalogued type needs one. */
  jobs?: JobRegistration[];
  /** Event- and clock-driven watchers for the scheduler role (they only enqueue, like ticks). */
  background?: () => { close(): void | Promise<void> };
  /** What the scheduler role's periodic resync checks and repairs for this feature (src/schedules/resync.ts). */
  repairers?: () => Repairer[];
  /** For each kind a POST creates: its answer again, for an Idempotency-Key retry after Redis lost the record. */
  replays?: Partial<Record<CachedKind, Replayer>>;
}

/** Each feature (clusters, pools and claims, schedules, expiry...) adds one line here. */
export const FEATURES: Array<(deps: FeatureDeps) => Feature> = [
  (deps) => {
    // ExpiryPolicies (on the state hub) cap the expiry a request may ask for.
    const policyHome = {
      stateHub: deps.config.stateHub,
      stateNamespace: deps.config.stateNamespace,
      teams: deps.teams,
    };
    const clusters = createClusterService({
      store: deps.store,
      queue: deps.queue,
      operations: deps.operations,
      clock: deps.clock,
      log: deps.log.child({ component: 'clusters' }),
      quotas: createQuotaGuard(deps),
      ...policyHome,
    });
    return {
      routes: [
        clusterRoutes({ clusters, queue: deps.queue, ownership: { store: deps.store, teams: deps.teams } }),
        hubRoutes({ hubs: deps.hubs }),
      ],
      replays: {
        // Every 202 is an Operation: the job as it is now, with the first answer's status and Location.
        Operation: async (hub, obj) => {
          const op = obj as Operation;
          // The cache may still hold an Operation its own request removed (its write failed, the caller got a 5xx
          // and retries) while the informer is down: replaying it would hand out a job that never runs. Only an
          // Operation the hub still has is replayed; otherwise this throws and the retry runs as a new request.
          const live = await deps.store.get<Operation>('Operation', {
            hub,
            namespace: op.metadata.namespace!,
            name: op.metadata.name,
          });
          if (!live || live.metadata.uid !== op.metadata.uid) throw new Error('the Operation is gone');
          const job = await deps.queue.get(op.metadata.name);
          return {
            status: op.spec.idempotency?.status ?? 202,
            ...(op.spec.idempotency?.location ? { location: op.spec.idempotency.location } : {}),
            body: { job },
          };
        },
      },
      jobs: clusterJobs({
        store: deps.store,
        clock: deps.clock,
        log: deps.log.child({ component: 'clusters' }),
        onPowerTransition: (t) => deps.metrics.powerTransitions.inc(t),
      }),
    };
  },
  (deps) => {
    const log = deps.log.child({ component: 'claims' });
    const base = { store: deps.store, queue: deps.queue, operations: deps.operations, clock: deps.clock, log };
    const quotas = createQuotaGuard(deps);
    // ExpiryPolicies (on the state hub) cap claim lifetimes too (a team's policy only its own team's).
    const policyHome = {
      stateHub: deps.config.stateHub,
      stateNamespace: deps.config.stateNamespace,
      teams: deps.teams,
    };
    const metrics = createPoolClaimMetrics(deps.metrics.registry, { store: deps.store, clock: deps.clock });
    const claims = createClaimService({ ...base, ...policyHome, quotas });
    metrics.setPendingSource(() => claims.pendingByPool());
    const pools = createPoolService({ ...base, quotas });
    return {
      routes: [
        poolRoutes({ pools, ownership: { store: deps.store, teams: deps.teams } }),
        claimRoutes({ claims, ownership: { store: deps.store, teams: deps.teams } }),
      ],
      replays: {
        ClusterClaim: async (hub, obj) => {
          const view = await claims.get(claimRefOf(hub, obj as never));
          return { status: 201, location: `/v1/claims/${view.id}`, body: view };
        },
        ClusterPool: async (hub, obj) => {
          const view = await pools.get({ hub, namespace: obj.metadata.namespace!, name: obj.metadata.name });
          return { status: 201, location: `/v1/pools/${view.id}`, body: view };
        },
      },
      jobs: [...poolJobs(base), ...claimJobs({ ...base, ...policyHome })],
      background: () => {
        const reaper = startClaimReaper(base);
        // Every scheduler replica watches (so a new lease holder knows which claims were already seen); only the
        // holder observes: one observation per claim fleet-wide.
        const stopWaits = watchClaimWaits({ store: deps.store, onWait: metrics.observeWait, owner: deps.leader });
        return {
          close: () => {
            stopWaits();
            reaper.close();
          },
        };
      },
      repairers: () => [heartbeatRepairer(base)],
    };
  },
  (deps) => {
    // Schedules and expiry: Beekeeper's own resources live in the state namespace on the state hub.
    const state = { stateHub: deps.config.stateHub, stateNamespace: deps.config.stateNamespace };
    // A team's schedules, policies and webhooks act on its own clusters only (services/team-scope.ts).
    const base = {
      store: deps.store,
      queue: deps.queue,
      operations: deps.operations,
      clock: deps.clock,
      teams: deps.teams,
      ...state,
    };
    const webhookPolicy = createAddressPolicy(deps.config.webhooks);
    const schedules = createScheduleService({
      ...base,
      log: deps.log.child({ component: 'schedules' }),
      sweepConcurrency: (hub) =>
        (deps.config.hubs.find((h) => h.name === hub) ?? deps.config.hubDefaults).sweepConcurrency,
    });
    const expiry = createExpiryService({
      ...base,
      webhookPolicy,
      log: deps.log.child({ component: 'expiry' }),
      quotas: createQuotaGuard(deps),
    });
    const webhooks = createWebhookService({ ...base, webhookPolicy, log: deps.log.child({ component: 'webhooks' }) });
    return {
      routes: [scheduleRoutes({ schedules, queue: deps.queue }), expiryRoutes({ expiry, webhooks })],
      jobs: [...schedules.jobs(), ...expiry.jobs()],
      replays: {
        // A replay renders what this request created, for the caller who made it: no second access check.
        HibernationSchedule: async (_hub, obj) => ({
          status: 201,
          body: await schedules.get(obj.metadata.name, OPEN_CALLER),
        }),
        ExpiryPolicy: async (_hub, obj) => ({
          status: 201,
          body: await expiry.policies.get(obj.metadata.name, OPEN_CALLER),
        }),
        ClusterOverride: async (_hub, obj) => {
          const { hub, namespace, name } = (obj as ClusterOverride).spec.cluster;
          const view = schedules
            .listOverrides(hub, namespace, name, OPEN_CALLER)
            .find((o) => o.name === obj.metadata.name);
          if (!view) throw new NotFound(`override ${obj.metadata.name} not found`);
          return { status: 201, body: view };
        },
      },
      background: () => {
        const timers = [
          startScheduleTimers({ ...base, log: deps.log.child({ component: 'schedule-timers' }) }),
          startExpiryTimers({ ...base, log: deps.log.child({ component: 'expiry-timers' }) }),
        ];
        return { close: () => timers.forEach((t) => t.close()) };
      },
      repairers: () => [
        ...scheduleRepairers({ ...base, log: deps.log.child({ component: 'resync' }) }),
        ...expiryRepairers({ ...base, log: deps.log.child({ component: 'resync' }) }),
      ],
    };
  },
  (deps) => {
    // Relocations between hubs (issue 11). The job hands Hive on the source hub a kubeconfig for the destination
    // built from Beekeeper's own connection to it (the configured hub's kubeconfig, made self-contained).
    const hubConfig = (name: string) => {
      const hub = deps.config.hubs.find((h) => h.name === name);
      if (!hub) throw new NotFound(`hub ${name} is not configured`);
      return hub;
    };
    const observer = createRelocationMetrics(deps.metrics.registry);
    // The API's preflight, run again as each wave starts (told which relocation asks).
    const preflight = createPreflight({
      store: deps.store,
      stateHub: deps.config.stateHub,
      stateNamespace: deps.config.stateNamespace,
      teams: deps.teams,
    });
    return {
      jobs: [
        relocationRunJob({
          store: deps.store,
          clock: deps.clock,
          log: deps.log.child({ component: 'relocations' }),
          stateHub: deps.config.stateHub,
          stateNamespace: deps.config.stateNamespace,
          preflight,
          kubeconfigFor: (hub) => exportKubeconfig(hubConfig(hub)),
          observer,
        }),
      ],
    };
  },
  (deps) => {
    const state = { store: deps.store, stateHub: deps.config.stateHub, stateNamespace: deps.config.stateNamespace };
    return {
      routes: [
        resyncRoutes({ intervalSeconds: deps.config.resync.intervalSeconds, last: () => readResyncRecord(state) }),
      ],
    };
  },
  relocationFeature,
  // Who am I, and the caller's teams with their quotas and usage (the quotas themselves are checked in the
  // cluster, claim and pool services above).
  (deps) => ({ routes: [teamRoutes(deps)] }),
];
