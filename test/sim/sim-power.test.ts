import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsClusterDeployment, condition, createPrerequisites, recordChanges, waitFor } from './sim-helpers.js';

const RESUME = [
  'StartingMachines',
  'WaitingForMachines',
  'WaitingForNodes',
  'PausingForClusterOperatorsToSettle',
  'WaitingForClusterOperators',
  'Running',
];

describe('simulated hibernation controller', () => {
  let sim: Simulator;
  let client: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ speed: 2000 });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'power');
  });
  afterAll(() => sim?.close());

  it('passes through every upstream power state, in order, after install, on hibernate and on resume', async () => {
    const states = recordChanges(client, R.clusterDeployment, 'power', 'c1', (cd) => cd.status?.powerState);
    await client.create(R.clusterDeployment, awsClusterDeployment('power', 'c1'));
    let cd = await waitFor(client, R.clusterDeployment, 'power', 'c1', (o) => o?.status?.powerState === 'Running');
    expect(condition(cd, 'Ready')).toMatchObject({ status: 'True', reason: 'Running', message: 'Cluster is running' });
    expect(condition(cd, 'Hibernating')).toMatchObject({
      status: 'False',
      reason: 'ResumingOrRunning',
      message: 'Cluster is resuming or running, see Ready condition for details',
    });
    // Hibernation waits for the first SyncSet apply.
    await waitFor(client, R.clusterSync, 'power', 'c1', (s) => Boolean(s?.status?.firstSuccessTime));

    await client.mergePatch(R.clusterDeployment, 'power', 'c1', { spec: { powerState: 'Hibernating' } });
    cd = await waitFor(client, R.clusterDeployment, 'power', 'c1', (o) => o?.status?.powerState === 'Hibernating');
    expect(condition(cd, 'Hibernating')).toMatchObject({
      status: 'True',
      reason: 'Hibernating',
      message: 'Cluster is stopped',
    });
    // A hibernated cluster's API cannot answer.
    await waitFor(
      client,
      R.clusterDeployment,
      'power',
      'c1',
      (o) => condition(o, 'Unreachable')?.reason === 'ErrorConnectingToCluster',
    );
    expect(condition(cd, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'StoppingOrHibernating',
      message: 'Cluster is shutting down or hibernating, see Hibernating condition for details',
    });

    await client.mergePatch(R.clusterDeployment, 'power', 'c1', { spec: { powerState: 'Running' } });
    await waitFor(client, R.clusterDeployment, 'power', 'c1', (o) => o?.status?.powerState === 'Running');
    states.stop();
    await waitFor(
      client,
      R.clusterDeployment,
      'power',
      'c1',
      (o) => condition(o, 'Unreachable')?.reason === 'ClusterReachable',
    );
    expect(states.seen).toEqual([...RESUME, 'Stopping', 'WaitingForMachinesToStop', 'Hibernating', ...RESUME]);
  });

  it('skips the ClusterOperator steps when resume-skips-cluster-operators is set', async () => {
    const states = recordChanges(client, R.clusterDeployment, 'power', 'c2', (cd) => cd.status?.powerState);
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('power', 'c2', {
        labels: { 'hive.openshift.io/resume-skips-cluster-operators': 'true' },
      }),
    );
    await waitFor(client, R.clusterDeployment, 'power', 'c2', (o) => o?.status?.powerState === 'Running');
    states.stop();
    expect(states.seen).toEqual(['StartingMachines', 'WaitingForMachines', 'WaitingForNodes', 'Running']);
  });

  it('reports Unsupported and assumes running on a platform without a power actuator', async () => {
    await client.create(R.secret, {
      metadata: { name: 'os-creds', namespace: 'power' },
      data: { 'clouds.yaml': 'eA==' },
    });
    const cd = awsClusterDeployment('power', 'os1', { spec: { powerState: 'Hibernating' } });
    cd.spec.platform = { openstack: { cloud: 'openstack', credentialsSecretRef: { name: 'os-creds' } } };
    await client.create(R.clusterDeployment, cd);
    const got = await waitFor(
      client,
      R.clusterDeployment,
      'power',
      'os1',
      (o) => condition(o, 'Hibernating')?.reason === 'Unsupported',
    );
    expect(got!.status.powerState).toBe('Running');
    expect(condition(got, 'Hibernating')).toMatchObject({
      status: 'False',
      message: 'Unsupported platform: no actuator to handle it',
    });
    expect(condition(got, 'Ready')).toMatchObject({
      status: 'True',
      reason: 'Running',
      message: 'No power state actuator -- assuming running',
    });
    expect(got!.metadata.labels['hive.openshift.io/cluster-platform']).toBe('openstack');
    expect(got!.metadata.labels['hive.openshift.io/cluster-region']).toBe('unknown');
  });

  it('freezes with powerstate-pause: Unknown / PowerStatePaused', async () => {
    await client.mergePatch(R.clusterDeployment, 'power', 'c2', {
      metadata: { annotations: { 'hive.openshift.io/powerstate-pause': 'true' } },
      spec: { powerState: 'Hibernating' },
    });
    const cd = await waitFor(client, R.clusterDeployment, 'power', 'c2', (o) => o?.status?.powerState === 'Unknown');
    expect(condition(cd, 'Hibernating')).toMatchObject({ status: 'Unknown', reason: 'PowerStatePaused' });
    expect(condition(cd, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'PowerStatePaused' });
  });

  it('hibernates by itself once hibernateAfter has passed since the cluster became ready', async () => {
    const states = recordChanges(client, R.clusterDeployment, 'power', 'c3', (cd) => cd.spec?.powerState ?? '');
    await client.create(R.clusterDeployment, awsClusterDeployment('power', 'c3', { spec: { hibernateAfter: '1s' } }));
    const cd = await waitFor(
      client,
      R.clusterDeployment,
      'power',
      'c3',
      (o) => o?.status?.powerState === 'Hibernating',
    );
    states.stop();
    expect(cd!.spec.powerState).toBe('Hibernating');
    expect(states.seen).toEqual(['', 'Hibernating']);
  });
});

describe('simulated hibernation controller, Running asked before a stop finished', () => {
  const HOUR = 3_600_000;
  let sim: Simulator;
  let client: KubeClient;
  let clock: TestClock;
  const hib = (cd: any) =>
    `${cd.status?.powerState}|${condition(cd, 'Hibernating')?.reason}|${condition(cd, 'Ready')?.reason}`;
  beforeAll(async () => {
    clock = createTestClock();
    // Stops, the first SyncSet apply and its grace take hours: the test has time to ask for Running in between.
    sim = await startSimulator({
      speed: 2000,
      clock,
      durations: { stopping: 10 * HOUR, syncSetApply: 10 * HOUR, syncSetsGrace: 10 * HOUR },
    });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'flip');
  });
  afterAll(() => sim?.close());

  it('resumes from SyncSetsNotApplied without a start call: nodes, operators, Running; Hibernating keeps its reason', async () => {
    const seen = recordChanges(client, R.clusterDeployment, 'flip', 'early', (cd) => cd.spec?.installed && hib(cd));
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('flip', 'early', { spec: { powerState: 'Hibernating' } }),
    );
    await waitFor(client, R.clusterDeployment, 'flip', 'early', (o) => o?.status?.powerState === 'SyncSetsNotApplied');
    await client.mergePatch(R.clusterDeployment, 'flip', 'early', { spec: { powerState: 'Running' } });
    const cd = await waitFor(client, R.clusterDeployment, 'flip', 'early', (o) => o?.status?.powerState === 'Running');
    seen.stop();
    expect(seen.seen.slice(seen.seen.indexOf('SyncSetsNotApplied|SyncSetsNotApplied|Initialized'))).toEqual([
      'SyncSetsNotApplied|SyncSetsNotApplied|Initialized',
      'WaitingForNodes|SyncSetsNotApplied|WaitingForNodes',
      'PausingForClusterOperatorsToSettle|SyncSetsNotApplied|PausingForClusterOperatorsToSettle',
      'WaitingForClusterOperators|SyncSetsNotApplied|WaitingForClusterOperators',
      'Running|SyncSetsNotApplied|Running',
    ]);
    expect(condition(cd, 'Ready')).toMatchObject({ status: 'True', message: 'Cluster is running' });
  });

  it('resumes mid-stop by polling: WaitingForMachines first, never StartingMachines; Hibernating stays Stopping', async () => {
    await client.create(R.clusterDeployment, awsClusterDeployment('flip', 'late'));
    await waitFor(client, R.clusterDeployment, 'flip', 'late', (o) => o?.status?.powerState === 'Running');
    clock.advance(11 * HOUR); // the first SyncSet apply
    await waitFor(client, R.clusterSync, 'flip', 'late', (s) => Boolean(s?.status?.firstSuccessTime));
    const states = recordChanges(client, R.clusterDeployment, 'flip', 'late', (cd) => cd.status?.powerState);
    await client.mergePatch(R.clusterDeployment, 'flip', 'late', { spec: { powerState: 'Hibernating' } });
    await waitFor(client, R.clusterDeployment, 'flip', 'late', (o) => o?.status?.powerState === 'Stopping');
    await client.mergePatch(R.clusterDeployment, 'flip', 'late', { spec: { powerState: 'Running' } });
    const cd = await waitFor(client, R.clusterDeployment, 'flip', 'late', (o) => o?.status?.powerState === 'Running');
    states.stop();
    expect(states.seen).toEqual([
      'Running',
      'Stopping',
      'WaitingForMachines',
      'WaitingForNodes',
      'PausingForClusterOperatorsToSettle',
      'WaitingForClusterOperators',
      'Running',
    ]);
    expect(condition(cd, 'Hibernating')).toMatchObject({
      status: 'False',
      reason: 'Stopping',
      message: 'Stopping cluster machines',
    });
    expect(condition(cd, 'Ready')).toMatchObject({ status: 'True', reason: 'Running' });
  });
});
