// The claims flow harness: a two-hub simulator, the real Kubernetes gateway, BullMQ on the real Redis (a prefix of
// its own), workers with the pool and claim job handlers, the heartbeat reaper, and the HTTP edge with the pool and
// claim routes. Only Beekeeper's own wiring is assembled here; nothing is mocked.
import { randomUUID } from 'node:crypto';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createMetrics } from '../../src/http/metrics.js';
import { claimRoutes } from '../../src/http/routes/claims.js';
import { createPoolClaimMetrics } from '../../src/http/routes/pool-claim-metrics.js';
import { clusterRoutes } from '../../src/http/routes/clusters.js';
import { poolRoutes } from '../../src/http/routes/pools.js';
import { buildServer } from '../../src/http/server.js';
import { createJobQueue } from '../../src/jobs/job-queue.js';
import { startWorkers } from '../../src/jobs/worker.js';
import { createKubeGateway } from '../../src/kube/gateway.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { claimJobs, createClaimService, startClaimReaper } from '../../src/services/claims/claim-service.js';
import { watchClaimWaits } from '../../src/services/claims/claim-wait-metric.js';
import { createClusterService } from '../../src/services/clusters/cluster-service.js';
import { clusterJobs } from '../../src/services/clusters/job-handlers.js';
import { createOperations } from '../../src/services/operations/operations.js';
import { createPoolService, poolJobs } from '../../src/services/pools/pool-service.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { startSimulator, type SimulatorOptions } from '../../src/sim/simulator.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { configTeamDirectory } from '../../src/auth/team-directory.js';

const MINUTE = 60_000;
const b64 = (s: string) => Buffer.from(s).toString('base64');

export const IMAGE_SETS = {
  v416: { name: 'openshift-v4.16.3', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  v417: { name: 'openshift-v4.17.9', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
};

export async function startClaimsHarness(opts: { durations?: SimulatorOptions['durations']; speed?: number } = {}) {
  const clock: TestClock = createTestClock();
  const log = createLogger({ level: 'silent' });
  const sim = await startSimulator({
    hubs: 2,
    clock,
    speed: opts.speed ?? 2000,
    // Resume steps slow enough (~0.2 s each) that a waiting claim can be seen reporting them.
    durations: {
      startingMachines: 6 * MINUTE,
      machinesStarting: 6 * MINUTE,
      nodesStarting: 6 * MINUTE,
      clusterOperatorSettle: 6 * MINUTE,
      clusterOperators: 6 * MINUTE,
      ...opts.durations,
    },
  });
  const hubNames = sim.hubs.map((h) => h.name);
  const hubConfigs = hubNames.map((name) => ({ name, kubeconfigData: sim.kubeconfigYaml(), context: name }));
  // ExpiryPolicies live in the state namespace on the first hub, as in Beekeeper's default configuration.
  const policyHome = { stateHub: hubNames[0]!, stateNamespace: 'beekeeper' };
  await prepareEmbeddedHub({
    hub: {
      ...hubConfigs[0]!,
      inCluster: false,
      concurrency: 1,
      globalConcurrency: 1,
      backgroundConcurrency: 1,
      backgroundGlobalConcurrency: 1,
      sweepConcurrency: 1,
      qps: 50,
      burst: 100,
      maxInFlight: 64,
    },
    namespace: policyHome.stateNamespace,
    clock,
    log,
  });
  const store = await createKubeGateway({
    hubs: hubConfigs,
    stateHub: policyHome.stateHub,
    log,
    clock,
  });
  const config = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-claims-${randomUUID().slice(0, 8)}}`,
  });
  const producer = createRedis(config.redis, 'producer');
  const listener = createRedis(config.redis, 'worker');
  await waitReady(producer);
  const jobs = { ...config.jobs, lockDurationMs: 5000, stalledIntervalMs: 2000, shutdownGraceMs: 1000 };
  const queue = createJobQueue({
    producer,
    listener,
    prefix: config.redis.prefix,
    hubs: hubNames,
    defaultHub: hubNames[0]!,
    jobs,
    log,
  });
  // Releases and pool deletes are accepted as Operations in the state namespace, as in the system.
  const operations = createOperations({ store, queue, clock, log, ...policyHome });
  const base = { store, queue, operations, clock, log };
  const metrics = createMetrics({ defaultMetrics: false });
  const poolClaimMetrics = createPoolClaimMetrics(metrics.registry, { store, clock });
  const claims = createClaimService({ ...base, ...policyHome });
  // As the scheduler role does (system/features.ts), here as the only replica: it holds the lease.
  const stopClaimWaits = watchClaimWaits({ store, onWait: poolClaimMetrics.observeWait });
  poolClaimMetrics.setPendingSource(() => claims.pendingByPool());
  const pools = createPoolService(base);
  const workers = await startWorkers({
    connection: listener,
    prefix: config.redis.prefix,
    hubs: hubNames.map((name) => ({
      name,
      concurrency: 20,
      globalConcurrency: 40,
      backgroundConcurrency: 20,
      backgroundGlobalConcurrency: 40,
    })),
    // The cluster power endpoints too, for the CLI's hibernate and resume.
    handlers: Object.fromEntries(
      [...claimJobs({ ...base, ...policyHome }), ...poolJobs(base), ...clusterJobs(base)].map((r) => [
        r.job.type,
        r.handle,
      ]),
    ),
    jobs,
    clock,
    log,
    operations: operations.recorder,
  });
  let reaper = startClaimReaper(base);
  const teams = configTeamDirectory(config);
  const ownership = { store, teams };
  const app = await buildServer({
    teams,
    config,
    log,
    queue: operations.ledger(queue),
    store,
    metrics,
    routes: [
      poolRoutes({ pools, ownership }),
      claimRoutes({ claims, ownership }),
      clusterRoutes({ clusters: createClusterService(base), queue: operations.ledger(queue), ownership }),
    ],
    redis: producer,
    queuesForBoard: queue.boardQueues(),
  });

  /** Namespace `ci` with credentials, pull secret, and both ClusterImageSets, on every hub. */
  async function prerequisites() {
    for (const hub of hubNames) {
      const create = (kind: Parameters<typeof store.create>[0], obj: KubeObject) => store.create(kind, hub, obj);
      await create('Namespace', { metadata: { name: 'ci' } });
      await create('Secret', {
        metadata: { name: 'aws-creds', namespace: 'ci' },
        data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
      });
      await create('Secret', {
        metadata: { name: 'pull-secret', namespace: 'ci' },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': b64('{"auths":{}}') },
      });
      for (const s of Object.values(IMAGE_SETS))
        await create('ClusterImageSet', { metadata: { name: s.name }, spec: { releaseImage: s.releaseImage } });
    }
    await Promise.all(
      hubNames.map((hub) =>
        store.waitFor('ClusterImageSet', { hub, name: IMAGE_SETS.v417.name }, (o) => o, { timeoutMs: 10_000 }),
      ),
    );
  }

  const poolClusterList = (hub: string, pool: string) =>
    store
      .cachedList<ClusterDeployment>('ClusterDeployment', {
        hub,
        labelSelector: `hive.openshift.io/clusterpool-name=${pool}`,
      })
      .map((e) => e.object);

  /** The first cluster of the pool that satisfies `test`, as soon as an informer event shows one. */
  function clusterWhere(
    hub: string,
    pool: string,
    test: (cd: ClusterDeployment) => boolean,
    timeoutMs = 15_000,
  ): Promise<ClusterDeployment> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const cd = poolClusterList(hub, pool).find(test);
        if (!cd) return;
        done();
        resolve(cd);
      };
      const off = store.onChange('ClusterDeployment', check);
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `no cluster of ${pool} got there: ${JSON.stringify(poolClusterList(hub, pool).map((cd) => [cd.metadata.name, cd.spec.installed, cd.status?.powerState]))}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        off();
        clearTimeout(timer);
      };
      check();
    });
  }

  /**
   * With Hive at its real pace (speed 1): moves the clock over one simulated step of a cluster and waits for what
   * follows. A step's timer starts when Hive first sees the step; if the jump came before that, jump again (so the
   * durations Kubernetes records can come out longer than the step).
   */
  async function jump(
    hub: string,
    name: string,
    ms: number,
    test: (cd: ClusterDeployment) => boolean,
  ): Promise<ClusterDeployment> {
    for (let attempt = 1; ; attempt++) {
      clock.advance(ms);
      try {
        return await store.waitFor<ClusterDeployment, ClusterDeployment>(
          'ClusterDeployment',
          { hub, namespace: name, name },
          (cd) => (cd && test(cd) ? cd : undefined),
          { timeoutMs: 5000 },
        );
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  }

  return {
    clock,
    sim,
    clusterWhere,
    jump,
    policyHome,
    store,
    queue,
    operations,
    claims,
    pools,
    app,
    prerequisites,
    /** What a scheduler restart after losing Redis looks like: every key of ours gone, a fresh reaper. */
    async flushRedisAndRestartReaper() {
      reaper.close();
      const keys = await producer.keys(`${config.redis.prefix}*`);
      if (keys.length) await producer.del(...keys);
      reaper = startClaimReaper(base);
    },
    async close() {
      await app.close();
      reaper.close();
      stopClaimWaits();
      await workers.close();
      await queue.close();
      const keys = await producer.keys(`${config.redis.prefix}*`);
      if (keys.length) await producer.del(...keys);
      await closeRedis(producer);
      await closeRedis(listener);
      await store.close();
      await sim.close();
    },
  };
}

export type ClaimsHarness = Awaited<ReturnType<typeof startClaimsHarness>>;

/** Install stages as a pool cluster shows them (install-step.ts), for waiting on them. */
export const installing = (cd: ClusterDeployment) => !cd.spec.installed && Boolean(cd.spec.clusterMetadata?.infraID);
export const settling = (cd: ClusterDeployment) => cd.status?.powerState === 'PausingForClusterOperatorsToSettle';
export const running = (cd: ClusterDeployment) => cd.status?.powerState === 'Running';

/** A pool request as a CI admin would send it. */
export function poolRequest(hub: string, name: string, over: Record<string, unknown> = {}) {
  return {
    hub,
    namespace: 'ci',
    name,
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'ci.example.com',
    imageSetName: IMAGE_SETS.v416.name,
    pullSecretRef: 'pull-secret',
    size: 1,
    runningCount: 1,
    ...over,
  };
}
