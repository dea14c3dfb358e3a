// The power job's timeout is the caller's to set, runs on the injected clock, and names the last state Hive showed.
// Handlers are driven directly here (the queue plumbing is covered by the flow tests).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import { Unavailable } from '../../src/hive/errors.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { clusterJobs } from '../../src/services/clusters/job-handlers.js';
import type { JobContext, JobStep } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd, quietLog } from '../kube/support.js';

const HUB = 'south';
const ns = 'timeouts';
const clock = createTestClock();
let sim: Simulator;
let gw: KubeGateway;

function context(steps: JobStep[]): JobContext {
  return {
    jobId: 'south.test-job',
    attempt: 1,
    step: async (step, message) =>
      void steps.push({ step, ...(message ? { message } : {}), at: new Date(clock.now()).toISOString() }),
    signal: new AbortController().signal,
    log: quietLog,
  };
}

beforeAll(async () => {
  sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock });
  gw = await createKubeGateway({
    hubs: [{ name: HUB, kubeconfigData: sim.kubeconfigYaml(), context: HUB }],
    log: quietLog,
    clock,
    cachedKinds: ['ClusterDeployment'],
  });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  await gw.create('Namespace', HUB, { metadata: { name: ns } });
  await gw.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace: ns },
    data: { aws_access_key_id: b64('a'), aws_secret_access_key: b64('b') },
  });
  await gw.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace: ns },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  } as never);
  await gw.create('Secret', HUB, {
    metadata: { name: 'slow-install-config', namespace: ns },
    data: { 'install-config.yaml': b64('apiVersion: v1\nmetadata:\n  name: slow\nbaseDomain: example.com\n') },
  });
  await gw.create('ClusterDeployment', HUB, cd('slow', ns));
  await gw.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: HUB, namespace: ns, name: 'slow' },
    (o) => (o?.status?.powerState === 'Running' ? true : undefined),
    {
      timeoutMs: 3_600_000,
    },
  );
});

afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

it('a hibernate that Hive never carries out fails after the configured time, with the last state', async () => {
  const ref = { hub: HUB, namespace: ns, name: 'slow' };
  await gw.mergePatch('ClusterDeployment', ref, {
    metadata: { annotations: { 'hive.openshift.io/reconcile-pause': 'true' } },
  });
  await gw.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    ref,
    (o) => (o?.metadata.annotations?.['hive.openshift.io/reconcile-pause'] ? true : undefined),
    { timeoutMs: 5000 },
  );

  const transitions: string[] = [];
  const registered = clusterJobs({
    store: gw,
    clock,
    log: quietLog,
    config: { clusters: { powerMs: 10 * 60_000 } },
    onPowerTransition: (t) => transitions.push(`${t.to}:${t.outcome}`),
  });
  const handlers = Object.fromEntries(registered.map((r) => [r.job.type, r.handle]));
  const steps: JobStep[] = [];
  const running = handlers['cluster.hibernate']!({ hub: HUB, namespace: ns, name: 'slow' }, context(steps));
  running.catch(() => undefined);
  await gw.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    ref,
    (o) => (o?.spec.powerState === 'Hibernating' ? true : undefined),
    { timeoutMs: 5000 },
  );
  clock.advance(10 * 60_000 + 1);
  const err = await running.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Unavailable);
  expect((err as Error).message).toBe('Hibernate not finished after 10m: Hive last reported status.powerState Running');
  expect(steps.map((s) => s.step)).toEqual(['HibernateRequested']);
  expect(transitions).toEqual(['Hibernating:failed']);
});
