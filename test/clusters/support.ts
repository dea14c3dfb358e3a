// One Beekeeper (api + worker roles) on real Redis, against a fast simulated hub with a controllable clock.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import type { JobCatalog } from '../../src/jobs/catalog.js';
import { createLogger } from '../../src/logger.js';
import type { JobView } from '../../src/services/ports.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

export const HUB = 'east';

export interface Bed {
  sim: Simulator;
  system: System;
  app: FastifyInstance;
  clock: TestClock;
  close(): Promise<void>;
}

export async function startBed(
  opts: { deleteProtection?: boolean; catalog?: JobCatalog; durations?: SimulatorOptions['durations'] } = {},
): Promise<Bed> {
  const clock = createTestClock();
  // speed 1000: a 40-minute install takes ~2.4 s, a resume ~0.3 s.
  const sim = await startSimulator({
    hubNames: [HUB],
    speed: 1000,
    clock,
    deleteProtection: opts.deleteProtection ?? false,
    ...(opts.durations ? { durations: opts.durations } : {}),
  });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-clusters-${randomUUID().slice(0, 8)}}`,
  });
  const config = withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() });
  const log = createLogger({ level: 'silent' });
  // Beekeeper's own kinds (ExpiryPolicy...) and its state namespace, as `kubectl apply -f deploy/crds/` gives.
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({
    config,
    log,
    clock,
    roles: ['api', 'worker'],
    ...(opts.catalog ? { catalog: opts.catalog } : {}),
  });
  return {
    sim,
    system,
    app: system.app,
    clock,
    async close() {
      await system.close();
      await sim.close();
    },
  };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** A namespace with credentials and pull Secrets referenced by name, and a ClusterImageSet. */
export async function prerequisites(bed: Bed, namespace: string): Promise<void> {
  const { store } = bed.system;
  await store.create('Namespace', HUB, { metadata: { name: namespace } });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace },
    data: { aws_access_key_id: b64('AKIA'), aws_secret_access_key: b64('s3cr3t') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  } as never);
  await store
    .create('ClusterImageSet', HUB, {
      metadata: { name: 'openshift-v4.16.3' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
    })
    .catch(() => undefined);
}

export function createBody(
  namespace: string,
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    hub: HUB,
    namespace,
    name,
    baseDomain: 'example.com',
    platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
    imageSet: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    ...extra,
  };
}

export const steps = (job: JobView) => job.steps.map((s) => s.step);

/** Answer a mutation and wait (up to 60 s) for its job to end. */
export async function runJob(
  app: FastifyInstance,
  method: 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<JobView> {
  const sep = url.includes('?') ? '&' : '?';
  const res = await app.inject({ method, url: `${url}${sep}wait=60`, ...(payload ? { payload: payload } : {}) });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ job: JobView }>().job;
}

/** The simulator's fault switchboard (docs/simulator.md, "Faults"), over HTTP as an operator would use it. */
export async function simFaults(bed: Bed, spec: Record<string, unknown>): Promise<void> {
  const hub = bed.sim.hubs[0]!;
  const res = await fetch(`${hub.url}/_sim/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${hub.token}` },
    body: JSON.stringify(spec),
  });
  if (res.status !== 200) throw new Error(`PUT /_sim/faults: ${res.status} ${await res.text()}`);
}
