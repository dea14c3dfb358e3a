// Two simulated hubs (east, the source and state hub; west, the destination) and one Beekeeper (api + worker roles)
// on real Redis, for relocation tests. Each hub is a separate API server double with its own Hive controllers, so
// Hive's ClusterRelocate really copies objects from one to the other over HTTP.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { Durations } from '../../src/sim/durations.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

export const EAST = 'east';
export const WEST = 'west';

export interface TwoHubBed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export async function startTwoHubBed(
  opts: { speed?: number; durations?: Partial<Durations> } = {},
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
  });
  const kubeconfigOf = (i: number, name: string) => toYaml(sim.hubs[i]!.server.kubeconfig(name));
  // withEmbeddedHub gives one hub with the defaults filled in; the second hub is the same shape under another name.
  const east = withEmbeddedHub(base, { name: EAST, kubeconfigData: kubeconfigOf(0, EAST) });
  const westHub = { ...east.hubs[0]!, name: WEST, kubeconfigData: kubeconfigOf(1, WEST) };
  const config = { ...east, hubs: [east.hubs[0]!, westHub], stateHub: EAST } as Config;
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  return {
    sim,
    system,
    app: system.app,
    clock,
    config,
    async close() {
      await system.close();
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
  const { store } = bed.system;
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
