import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, KubeApiError, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsClusterDeployment, condition, createPrerequisites, recordChanges, waitFor } from './sim-helpers.js';

const HOUR = 3_600_000;
const installed = (o: any) => o?.spec?.installed === true;

describe('simulated ClusterDeployment deletion', () => {
  let sim: Simulator;
  let client: KubeClient;
  let clock: TestClock;
  beforeAll(async () => {
    clock = createTestClock();
    // The uninstall Job takes hours: the test sees the deprovision in progress, then advances the clock past it.
    sim = await startSimulator({ speed: 2000, clock, deleteProtection: true, durations: { deprovision: 10 * HOUR } });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'del');
  });
  afterAll(() => sim?.close());

  it('deletes a cluster once delete-after has passed since creation, deprovisioning it first', async () => {
    const reasons = recordChanges(
      client,
      R.clusterDeployment,
      'del',
      'short',
      (cd) => condition(cd, 'Provisioned')?.reason,
    );
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('del', 'short', {
        annotations: { 'hive.openshift.io/delete-after': '8h', 'hive.openshift.io/protected-delete': 'false' },
      }),
    );
    const cd = await waitFor(client, R.clusterDeployment, 'del', 'short', installed);
    expect(cd!.metadata.finalizers).toContain('hive.openshift.io/deprovision');
    // An explicit "false" opts out of deleteProtection (Hive never touches a key that is already there).
    expect(cd!.metadata.annotations['hive.openshift.io/protected-delete']).toBe('false');

    clock.advance(8 * HOUR);
    const deprovisioning = await waitFor(
      client,
      R.clusterDeployment,
      'del',
      'short',
      (o) =>
        condition(o, 'Provisioned')?.message === 'Cluster is deprovisioning' &&
        condition(o, 'DeprovisionLaunchError')?.status !== 'Unknown',
    );
    expect(condition(deprovisioning, 'Provisioned')).toMatchObject({ status: 'False', reason: 'Deprovisioning' });
    // The ClusterDeprovision's credentials check is mirrored into DeprovisionLaunchError.
    expect(condition(deprovisioning, 'DeprovisionLaunchError')).toMatchObject({
      status: 'False',
      reason: 'AuthenticationSucceeded',
    });
    clock.advance(11 * HOUR);
    await waitFor(client, R.clusterDeprovision, 'del', 'short', (d) => d?.status?.completed === true);
    await waitFor(client, R.clusterDeployment, 'del', 'short', (o) => o === undefined);
    reasons.stop();
    expect(reasons.seen).toEqual(['Initialized', 'Provisioning', 'Provisioned', 'Deprovisioning', 'Deprovisioned']);
  });

  it('refuses to delete a protected cluster, with the webhook message and field', async () => {
    await client.create(R.clusterDeployment, awsClusterDeployment('del', 'prot'));
    const cd = await waitFor(client, R.clusterDeployment, 'del', 'prot', installed);
    // deleteProtection: Hive annotates at install completion.
    expect(cd!.metadata.annotations['hive.openshift.io/protected-delete']).toBe('true');
    const err = await client.delete(R.clusterDeployment, 'del', 'prot').catch((e) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect(err.code).toBe(422);
    expect(err.status).toMatchObject({
      reason: 'Invalid',
      message:
        'admission webhook "clusterdeploymentvalidators.admission.hive.openshift.io" denied the request: ' +
        'ClusterDeployment.hive.openshift.io "prot" is invalid: metadata.annotations.hive.openshift.io/protected-delete: ' +
        'Invalid value: "true": cannot delete while annotation is present',
      details: {
        causes: [{ reason: 'FieldValueInvalid', field: 'metadata.annotations.hive.openshift.io/protected-delete' }],
      },
    });
    expect(await client.get(R.clusterDeployment, 'del', 'prot')).toBeTruthy();

    await client.mergePatch(R.clusterDeployment, 'del', 'prot', {
      metadata: { annotations: { 'hive.openshift.io/protected-delete': null } },
    });
    await client.delete(R.clusterDeployment, 'del', 'prot');
    await waitFor(
      client,
      R.clusterDeprovision,
      'del',
      'prot',
      (d) => condition(d, 'AuthenticationFailure') !== undefined,
    );
    clock.advance(11 * HOUR); // past the uninstall Job
    await waitFor(client, R.clusterDeployment, 'del', 'prot', (o) => o === undefined);
  });

  it('keeps the cloud resources of a preserveOnDelete cluster: no ClusterDeprovision', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('del', 'keep', {
        spec: { preserveOnDelete: true },
        annotations: { 'hive.openshift.io/protected-delete': 'false' },
      }),
    );
    await waitFor(client, R.clusterDeployment, 'del', 'keep', installed);
    await client.delete(R.clusterDeployment, 'del', 'keep');
    await waitFor(client, R.clusterDeployment, 'del', 'keep', (o) => o === undefined);
    expect(await client.tryGet(R.clusterDeprovision, 'del', 'keep')).toBeUndefined();
  });

  it('rejects changes to immutable spec fields and un-installing', async () => {
    await client.create(
      R.clusterDeployment,
      awsClusterDeployment('del', 'imm', { annotations: { 'hive.openshift.io/protected-delete': 'false' } }),
    );
    const cd = await waitFor(client, R.clusterDeployment, 'del', 'imm', installed);
    const err = await client
      .mergePatch(R.clusterDeployment, 'del', 'imm', { spec: { baseDomain: 'other.com' } })
      .catch((e) => e);
    expect(err.code).toBe(400);
    expect(err.status.message).toContain('Attempted to change ClusterDeployment.Spec which is immutable');
    expect(err.status.message).toContain('BaseDomain');
    const undo = await client
      .mergePatch(R.clusterDeployment, 'del', 'imm', { spec: { installed: false } })
      .catch((e) => e);
    expect(undo.code).toBe(422);
    expect(undo.status.details.causes[0]).toMatchObject({
      field: 'spec.installed',
      message: 'Invalid value: false: cannot make uninstalled once installed',
    });
    // Mutable fields pass.
    await client.mergePatch(R.clusterDeployment, 'del', 'imm', {
      spec: { powerState: 'Hibernating', hibernateAfter: '2h' },
    });
    expect(cd!.spec.clusterMetadata.infraID).toMatch(/^imm-[a-z0-9]{5}$/);
  });
});
