import type { Clock } from '../../clock.js';
import type { Durations } from '../durations.js';
import {
  R,
  createInformer,
  createKubeClient,
  keyOf,
  targetFromKubeconfig,
  type KubeClient,
  type KubeObject,
  type ApiResource,
} from '../client/index.js';
import { type HiveContext, type HiveOptions, type Informers, type Log, L } from './context.js';
import { type Controller, createStopwatch, startController } from './controller.js';
import { createExpectations } from './expectations.js';
import { registerHiveMetrics } from './metrics.js';
import { createMetricsRegistry, type MetricsRegistry } from '../metrics.js';
import { reconcileClusterDeployment } from './clusterdeployment.js';
import { reconcileClusterProvision } from './cluster-provision.js';
import { reconcileClusterDeprovision } from './cluster-deprovision.js';
import { reconcileClusterSync } from './cluster-sync.js';
import { reconcileHibernation } from './hibernation.js';
import { reconcileClusterPool } from './clusterpool.js';
import { reconcileClusterClaim } from './clusterclaim.js';
import { reconcilePoolNamespace } from './clusterpool-namespace.js';
import { reconcileClusterRelocate } from './clusterrelocate.js';
import { reconcileUnreachable } from './unreachable.js';
import { reconcileClusterVersion } from './clusterversion.js';

export type { HiveOptions, Log } from './context.js';

export interface HiveControllersOptions {
  hub: string;
  client: KubeClient;
  clock: Clock;
  durations: Durations;
  log: Log;
  options: HiveOptions;
  /** Where Hive's counters go (the hub's API server serves it at /_sim/metrics); a private one when absent. */
  metrics?: MetricsRegistry;
}

export interface HiveControllers {
  /** Resolves once every informer has listed its kind and the controllers have started working. */
  synced: Promise<void>;
  /** Resolves once no controller has work queued or running (writes it made may still bring more, by watch). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts Hive's controllers for one hub as ordinary API clients: informers per kind feed level-triggered work
 * queues, and each controller writes only through the API, so the same code drives this simulator's API server
 * or any real API server that has the Hive CRDs but no Hive.
 */
export function startHiveControllers(opts: HiveControllersOptions): HiveControllers {
  const { client } = opts;
  const inform = (r: ApiResource) =>
    createInformer(client, r, {
      onError: (err) =>
        opts.log({ hub: opts.hub, resource: r.plural, err: String(err) }, 'list or watch failed; retrying'),
    });
  const informers: Informers = {
    clusterDeployments: inform(R.clusterDeployment),
    clusterPools: inform(R.clusterPool),
    clusterClaims: inform(R.clusterClaim),
    clusterRelocates: inform(R.clusterRelocate),
    clusterImageSets: inform(R.clusterImageSet),
    clusterProvisions: inform(R.clusterProvision),
    clusterDeprovisions: inform(R.clusterDeprovision),
    clusterSyncs: inform(R.clusterSync),
    namespaces: inform(R.namespace),
  };
  const ctx: HiveContext = {
    hub: opts.hub,
    client,
    clock: opts.clock,
    durations: opts.durations,
    log: opts.log,
    informers,
    options: opts.options,
    provisionExpectations: createExpectations(() => opts.clock.now()),
    connect: (kubeconfig) => createKubeClient(targetFromKubeconfig(kubeconfig)),
    metrics: registerHiveMetrics(opts.metrics ?? createMetricsRegistry()),
  };
  const watch = createStopwatch(() => opts.clock.now());

  const cd = startController(ctx, 'clusterDeployment', (k) => reconcileClusterDeployment(ctx, watch, k));
  const provision = startController(ctx, 'clusterProvision', (k) => reconcileClusterProvision(ctx, watch, k));
  const deprovision = startController(ctx, 'clusterDeprovision', (k) => reconcileClusterDeprovision(ctx, watch, k));
  const sync = startController(ctx, 'clustersync', (k) => reconcileClusterSync(ctx, watch, k));
  const hibernation = startController(ctx, 'hibernation', (k) => reconcileHibernation(ctx, watch, k));
  const pool = startController(ctx, 'clusterpool', (k) => reconcileClusterPool(ctx, k), 1);
  const claim = startController(ctx, 'clusterclaim', (k) => reconcileClusterClaim(ctx, k));
  const poolNs = startController(ctx, 'clusterpoolnamespace', (k) => reconcilePoolNamespace(ctx, k));
  const relocate = startController(ctx, 'clusterRelocate', (k) => reconcileClusterRelocate(ctx, k), 2);
  const unreachable = startController(ctx, 'unreachable', (k) => reconcileUnreachable(ctx, k));
  const clusterVersion = startController(ctx, 'clusterversion', (k) => reconcileClusterVersion(ctx, k));
  const controllers: Controller[] = [
    cd,
    provision,
    deprovision,
    sync,
    hibernation,
    pool,
    claim,
    poolNs,
    relocate,
    unreachable,
    clusterVersion,
  ];

  const poolKeyOfCd = (o: KubeObject) => {
    const name = o.metadata.labels?.[L.poolName];
    const ns = o.metadata.labels?.[L.poolNamespace];
    return name && ns ? `${ns}/${name}` : undefined;
  };
  const cdsMatching = (pred: (o: KubeObject) => boolean) => informers.clusterDeployments.list().filter(pred).map(keyOf);

  informers.clusterDeployments.onEvent((_t, o) => {
    const k = keyOf(o);
    for (const c of [cd, sync, hibernation, relocate, deprovision, unreachable, clusterVersion]) c.queue.add(k);
    const p = poolKeyOfCd(o);
    if (p) pool.queue.add(p);
    const claimName = o.spec?.clusterPoolRef?.claimName;
    if (claimName) claim.queue.add(`${o.spec.clusterPoolRef.namespace}/${claimName}`);
    poolNs.queue.add(o.metadata.namespace);
    for (const p2 of informers.clusterProvisions.list(o.metadata.namespace)) {
      if (p2.metadata.labels?.[L.cdName] === o.metadata.name) provision.queue.add(keyOf(p2));
    }
  });
  informers.clusterProvisions.onEvent((_t, o) => {
    provision.queue.add(keyOf(o));
    const owner = o.metadata.labels?.[L.cdName];
    if (owner) cd.queue.add(`${o.metadata.namespace}/${owner}`);
  });
  informers.clusterDeprovisions.onEvent((_t, o) => {
    deprovision.queue.add(keyOf(o));
    cd.queue.add(keyOf(o));
  });
  informers.clusterSyncs.onEvent((_t, o) => {
    for (const c of [cd, sync, hibernation]) c.queue.add(keyOf(o));
  });
  informers.clusterImageSets.onEvent((_t, o) => {
    for (const k of cdsMatching((c) => c.spec?.provisioning?.imageSetRef?.name === o.metadata.name)) cd.queue.add(k);
    for (const p of informers.clusterPools.list()) pool.queue.add(keyOf(p));
  });
  informers.clusterPools.onEvent((_t, o) => {
    pool.queue.add(keyOf(o));
    for (const c of informers.clusterClaims.list(o.metadata.namespace)) claim.queue.add(keyOf(c));
  });
  informers.clusterClaims.onEvent((_t, o) => {
    claim.queue.add(keyOf(o));
    if (o.spec?.clusterPoolName) pool.queue.add(`${o.metadata.namespace}/${o.spec.clusterPoolName}`);
  });
  informers.clusterRelocates.onEvent(() => {
    for (const k of cdsMatching(() => true)) relocate.queue.add(k);
  });
  informers.namespaces.onEvent((_t, o) => {
    if (o.metadata.labels?.[L.namespacePool]) poolNs.queue.add(o.metadata.name);
  });

  const all = Object.values(informers);
  let closed = false;
  // Events that arrived during the initial lists are queued already; the workers start on complete caches.
  const synced = Promise.all(all.map((i) => i.synced)).then(() => {
    if (!closed) for (const c of controllers) c.queue.start();
  });
  return {
    synced,
    async idle() {
      await synced;
      await Promise.all(controllers.map((c) => c.queue.idle()));
    },
    async close() {
      closed = true;
      for (const c of controllers) c.queue.stop();
      for (const i of all) i.stop();
    },
  };
}
