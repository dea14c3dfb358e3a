// Two simulated hubs (east, the source and state hub; west, the destination) and one Beekeeper (api + worker roles)
// on real Redis, for relocation tests. Each hub is a separate API server double with its own Hive controllers, so
// Hive's ClusterRelocate really copies objects from one to the other over HTTP. With `leastPrivilege`, Beekeeper signs
// in to east as the ServiceAccount deploy/base/rbac.yaml makes and to west as the one deploy/hub-access makes, bound
// to nothing else; `admin` then seeds what a user or platform team would have made.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { Durations } from '../../src/sim/durations.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { createSystem, type Role, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { grantLeastPrivilege } from '../support/least-privilege.js';

export const EAST = 'east';
export const WEST = 'west';

export interface TwoHubBed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  /** A store with the hubs' admin credentials (no informers), for seeding; Beekeeper's own store without leastPrivilege. */
  admin: Pick<KubeGateway, 'create' | 'get' | 'list' | 'mergePatch' | 'replace' | 'delete'>;
  /** With leastPrivilege: the users Beekeeper is on each hub. */
  users: string[];
  close(): Promise<void>;
}

export async function startTwoHubBed(
  opts: {
    speed?: number;
    durations?: Partial<Durations>;
    leastPrivilege?: boolean;
    /** More configuration (environment variables). */
    env?: Record<string, string>;
    roles?: Role[];
    /** Runs after the hubs are ready and before Beekeeper starts (objects it must find at start-up). */
    beforeStart?: (sim: Simulator) => Promise<void>;
  } = {},
): Promise<TwoHubBed> {
  const clock = createTestClock();
  const sim = await startSimulator({
    hubNames: [EAST, WEST],
    speed: opts.speed ?? 1000,
    ...(opts.durations ? { durations: opts.durations } : {}),
    clock,
    deleteProtection: false,
  });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-reloc-${randomUUID().slice(0, 8)}}`,
    ...opts.env,
  });
  const kubeconfigOf = (i: number, name: string) => toYaml(sim.hubs[i]!.server.kubeconfig(name));
  // withEmbeddedHub gives one hub with the defaults filled in; the second hub is the same shape under another name.
  const east = withEmbeddedHub(base, { name: EAST, kubeconfigData: kubeconfigOf(0, EAST) });
  const westHub = { ...east.hubs[0]!, name: WEST, kubeconfigData: kubeconfigOf(1, WEST) };
  const adminConfig = { ...east, hubs: [east.hubs[0]!, westHub], stateHub: EAST } as Config;
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: adminConfig.hubs[0]!, namespace: adminConfig.stateNamespace, clock, log });
  let config = adminConfig;
  let admin: KubeGateway | undefined;
  const users: string[] = [];
  if (opts.leastPrivilege) {
    const [onEast, onWest] = [
      await grantLeastPrivilege(sim.hubs[0]!, 'state', adminConfig.stateNamespace),
      await grantLeastPrivilege(sim.hubs[1]!, 'hub-access', adminConfig.stateNamespace),
    ];
    users.push(onEast.user, onWest.user);
    config = {
      ...adminConfig,
      hubs: [
        { ...adminConfig.hubs[0]!, kubeconfigData: onEast.kubeconfigData },
        { ...adminConfig.hubs[1]!, kubeconfigData: onWest.kubeconfigData },
      ],
    };
    admin = await createKubeGateway({ hubs: adminConfig.hubs, log, clock, cachedKinds: [] });
  }
  await opts.beforeStart?.(sim);
  const system = await createSystem({ config, log, clock, roles: opts.roles ?? ['api', 'worker'] });
  return {
    sim,
    system,
    app: system.app,
    clock,
    config,
    admin: admin ?? system.store,
    users,
    async close() {
      await system.close();
      await admin?.close();
      await sim.close();
    },
  };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** On `hub`: a namespace with credentials and pull Secrets, and (unless `imageSet: false`) the ClusterImageSet. */
export async function prerequisites(
  bed: TwoHubBed,
  hub: string,
  namespace: string,
  opts: { imageSet?: boolean } = {},
): Promise<void> {
  const store = bed.admin;
  await store.create('Namespace', hub, { metadata: { name: namespace } }).catch(() => undefined);
  await store.create('Secret', hub, {
    metadata: { name: 'aws-creds', namespace },
    data: { aws_access_key_id: b64('AKIA'), aws_secret_access_key: b64('s3cr3t') },
  });
  await store.create('Secret', hub, {
    metadata: { name: 'pull-secret', namespace },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  } as never);
  if (opts.imageSet === false) return;
  await store
    .create('ClusterImageSet', hub, {
      metadata: { name: 'openshift-v4.16.3' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
    })
    .catch(() => undefined);
}

/** The body of POST /v1/clusters for an AWS cluster on `hub` (install it, then wait for Running, to have one to move). */
export function createBody(hub: string, namespace: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    hub,
    namespace,
    name,
    baseDomain: 'example.com',
    platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
    imageSet: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    ...extra,
  };
}
