import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsPool, createPrerequisites, waitFor } from './sim-helpers.js';

describe('simulated Hive under API faults', () => {
  let sim: Simulator;
  let client: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ speed: 2000 });
    client = createKubeClient({ server: sim.hubs[0]!.url, token: sim.hubs[0]!.token });
    await createPrerequisites(client, 'faulty');
  });
  afterAll(() => sim?.close());

  it('still fills a pool with exactly its size when writes fail, conflicts are forced and watches drop', async () => {
    await client.create(R.clusterPool, awsPool('faulty', 'p', { size: 3, runningCount: 1 }));
    // Each new pool cluster takes six creates (namespace, three Secrets, MachinePool, CD) and any failure ends the
    // reconcile with a backoff of up to 5 s, as in Hive; at a 20 % create failure rate a pool of 3 needed close to a
    // minute now and then, so creates fail at 10 %.
    sim.hubs[0]!.server.faults.set({
      errors: [
        { verb: 'update', rate: 0.2, code: 503 },
        { verb: 'create', rate: 0.1, code: 500 },
      ],
      watchDrops: { afterMs: 300 },
      conflicts: [{ resource: 'clusterdeployments', count: 20 }],
    });
    try {
      await waitFor(
        client,
        R.clusterPool,
        'faulty',
        'p',
        (p) => p?.status?.size === 3 && p.status.ready === 1 && p.status.standby === 2,
        // Faults are random and each failed reconcile backs off up to 5 s: an unlucky run on a loaded machine needs
        // more than the usual 20 s (seen once in CI). A bound on waiting, not a timing.
        60_000,
      );
    } finally {
      sim.hubs[0]!.server.faults.clear();
    }
    const cds = (
      await client.list(R.clusterDeployment, undefined, { labelSelector: 'hive.openshift.io/clusterpool-name=p' })
    ).items;
    expect(cds).toHaveLength(3);
    expect(cds.every((cd) => cd.spec.installed)).toBe(true);
  }, 90_000);
});
