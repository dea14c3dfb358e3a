import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient, type KubeObject } from '../../src/sim/client/index.js';
import { awsPool, condition, createPrerequisites, waitForAll } from './sim-helpers.js';

const HOUR = 3_600_000;
const ofPool = (pool: string) => (cds: KubeObject[]) =>
  cds.filter((cd) => cd.metadata.labels?.['hive.openshift.io/clusterpool-name'] === pool);
const live = (cds: KubeObject[]) => cds.filter((cd) => !cd.metadata.deletionTimestamp);

describe('simulated ClusterPool replacing broken clusters', () => {
  let sim: Simulator;
  let client: KubeClient;
  let clock: TestClock;
  beforeAll(async () => {
    clock = createTestClock();
    // Nodes take ten simulated hours to come back: every resume outlasts the pool's resumeTimeout.
    sim = await startSimulator({ speed: 2000, clock, durations: { nodesStarting: 10 * HOUR } });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'broken');
  });
  afterAll(() => sim?.close());

  it('deletes a cluster whose resume outlasts hibernationConfig.resumeTimeout and builds a replacement', async () => {
    const slow = ofPool('slow');
    await client.create(
      R.clusterPool,
      awsPool('broken', 'slow', { size: 1, runningCount: 1, hibernationConfig: { resumeTimeout: '20m' } }),
    );
    const [stuck] = slow(
      await waitForAll(client, R.clusterDeployment, (all) =>
        slow(all).some((cd) => cd.status?.powerState === 'WaitingForNodes'),
      ),
    );
    clock.advance(HOUR);
    const after = slow(
      await waitForAll(
        client,
        R.clusterDeployment,
        (all) => live(slow(all)).length === 1 && live(slow(all))[0]!.metadata.name !== stuck!.metadata.name,
      ),
    );
    expect(live(after).map((cd) => cd.metadata.name)).not.toContain(stuck!.metadata.name);
    expect(live(after)[0]!.spec.clusterPoolRef).toEqual({ namespace: 'broken', poolName: 'slow' });
  });

  it('replaces a cluster whose provisioning stopped (ProvisionStopped=True)', async () => {
    const failing = ofPool('failing');
    await client.create(
      R.clusterPool,
      awsPool('broken', 'failing', {
        size: 1,
        installAttemptsLimit: 1,
        annotations: { 'sim.hive.openshift.io/install-failures': '1' },
      }),
    );
    const [stopped] = failing(
      await waitForAll(client, R.clusterDeployment, (all) =>
        failing(all).some((cd) => condition(cd, 'ProvisionStopped')?.status === 'True'),
      ),
    ).filter((cd) => condition(cd, 'ProvisionStopped')?.status === 'True');
    expect(condition(stopped, 'ProvisionStopped')!.reason).toBe('InstallAttemptsLimitReached');
    await waitForAll(
      client,
      R.clusterDeployment,
      (all) =>
        !live(failing(all)).some((cd) => cd.metadata.name === stopped!.metadata.name) &&
        live(failing(all)).length === 1,
    );
  });
});
