// The relocation job on two hubs (run-kit.ts): clusters moved in waves with what goes with them, Hive-side
// failures, preflight failing as a wave starts, a timeout, a run resumed after its worker is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterExpiry } from '../../src/services/expiry/targets.js';
import type { Relocation } from '../../src/services/relocations/relocation-run.js';
import { overrideName, type ClusterOverride } from '../../src/services/schedules/override-store.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';
import { runKit, RELOCATE } from './run-kit.js';

describe('the relocation job', () => {
  let bed: TwoHubBed;
  let ns: string;
  beforeAll(async () => {
    bed = await startTwoHubBed();
    ns = bed.config.stateNamespace;
  }, 60_000);
  afterAll(() => bed?.close());
  const { cd, relRef, install, createRelocation, enqueue, runDirect, relocation } = runKit(() => bed);

  it('moves clusters in waves with their Secrets, power state, expiry and overrides, then cleans up', async () => {
    await install('mv-a', { expiresIn: '8h' });
    await install('mv-b');
    await install('mv-c');
    const hib = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${EAST}/mv-b/mv-b/hibernate?wait=60` });
    expect(hib.statusCode, hib.body).toBe(200);
    const ovr = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${EAST}/mv-c/mv-c/overrides`,
      payload: { type: 'keepAwake', for: '4h', by: 'alice', reason: 'demo on Friday' },
    });
    expect(ovr.statusCode, ovr.body).toBe(201);
    const expiryBefore = clusterExpiry(EAST, (await cd(EAST, 'mv-a'))!)!.expiresAtMs;
    const secretsBefore = (await bed.system.store.list('Secret', EAST, { namespace: 'mv-a' })).map(
      (s) => s.metadata.name,
    );

    await createRelocation('mv', ['mv-a', 'mv-b', 'mv-c'], { size: 2 });
    const job = await enqueue('mv');
    const done = await bed.system.queue.waitUntilDone(job.id, 120_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');

    const rel = await relocation('mv');
    expect(rel.status?.phase).toBe('Succeeded');
    expect(rel.status?.waves).toMatchObject({ total: 2, done: 2 });
    expect(rel.status?.startedAt).toBeDefined();
    expect(rel.status?.eta).toBeDefined();
    expect(rel.status?.imageSetsCopied).toEqual(['openshift-v4.16.3']);
    expect(rel.status?.clusters?.map((c) => [c.name, c.wave, c.state, c.hub])).toEqual([
      ['mv-a', 1, 'moved', WEST],
      ['mv-b', 1, 'moved', WEST],
      ['mv-c', 2, 'moved', WEST],
    ]);
    for (const c of rel.status!.clusters!) expect(c.finishedAt).toBeDefined();
    for (const name of ['mv-a', 'mv-b', 'mv-c']) {
      expect(await cd(EAST, name)).toBeUndefined();
      const moved = (await cd(WEST, name))!;
      expect(moved.metadata.annotations?.[RELOCATE]).toBeUndefined();
      expect(moved.metadata.labels?.['beekeeper.io/relocation']).toBeUndefined();
      expect(moved.metadata.annotations?.['beekeeper.io/relocation-origin']).toBeUndefined();
    }
    expect((await cd(WEST, 'mv-b'))!.status?.powerState).toBe('Hibernating');
    expect((await cd(WEST, 'mv-a'))!.status?.powerState).toBe('Running');
    // Hive restarts delete-after from the copy's creationTimestamp; the deadline is the one it had.
    const after = clusterExpiry(WEST, (await cd(WEST, 'mv-a'))!)!.expiresAtMs;
    expect(Math.abs(after - expiryBefore)).toBeLessThan(1000);
    const secretsAfter = (await bed.system.store.list('Secret', WEST, { namespace: 'mv-a' })).map(
      (s) => s.metadata.name,
    );
    expect(secretsAfter).toEqual(expect.arrayContaining(secretsBefore));

    const overrides = bed.system.store
      .cachedList<ClusterOverride>('ClusterOverride', { hub: EAST, namespace: ns })
      .map((o) => o.object)
      .filter((o) => o.spec.cluster.name === 'mv-c');
    expect(overrides.map((o) => [o.metadata.name, o.spec.cluster.hub])).toEqual([
      [overrideName(WEST, 'mv-c', 'mv-c', 'keepAwake'), WEST],
    ]);
    const view = await bed.app.inject({ method: 'GET', url: `/v1/clusters/${WEST}/mv-c/mv-c/overrides` });
    expect(view.body).toContain('demo on Friday');

    expect(
      await bed.system.store.get('ClusterRelocate', { hub: EAST, ...rel.status!.clusterRelocate! }),
    ).toBeUndefined();
    expect(await bed.system.store.get('Secret', { hub: EAST, ...rel.status!.kubeconfigSecret! })).toBeUndefined();

    const metrics = await bed.system.metrics.registry.metrics();
    expect(metrics).toContain('beekeeper_relocation_clusters_total{state="moved",reason=""} 3');
    expect(metrics).toContain('beekeeper_relocations_finished_total{phase="Succeeded"} 1');
    expect(metrics).toMatch(/beekeeper_relocation_move_seconds_count 3/);
  }, 180_000);

  it('reports a Hive-side failure with its reason and leaves the cluster on the source', async () => {
    await install('twin');
    // A different cluster of the same name on the destination, made after preflight looked (a race preflight
    // cannot rule out): Hive refuses with ClusterDeploymentMismatch.
    await prerequisites(bed, WEST, 'twin');
    const other = await bed.app.inject({
      method: 'POST',
      url: '/v1/clusters',
      payload: createBody(WEST, 'twin', 'twin', { baseDomain: 'elsewhere.example.com' }),
    });
    expect(other.statusCode, other.body).toBe(202);
    await createRelocation('twin', ['twin']);
    // The other lane's preflight as it would answer before the twin appeared.
    const result = await runDirect('twin');
    expect(result).toMatchObject({ phase: 'Failed', failed: 1 });
    const rel = await relocation('twin');
    expect(rel.status?.clusters?.[0]).toMatchObject({
      state: 'failed',
      hub: EAST,
      reason: 'ClusterDeploymentMismatch',
      message: expect.stringContaining('first must be deleted'),
    });
    const source = (await cd(EAST, 'twin'))!;
    expect(source.metadata.labels?.['beekeeper.io/relocation']).toBeUndefined();
    expect(source.metadata.annotations?.[RELOCATE]).toBeUndefined();
    expect((await cd(WEST, 'twin'))!.spec.baseDomain).toBe('elsewhere.example.com');
  }, 120_000);

  it('a cluster failing preflight as its wave starts is recorded with the checks; the others move', async () => {
    await install('pf-a');
    await install('pf-b');
    await createRelocation('pf', ['pf-a', 'pf-b'], { size: 1 });
    await bed.system.store.mergePatch('Relocation', relRef('pf'), { spec: { skipFailed: true } });
    const check = {
      check: 'power-transition',
      severity: 'error' as const,
      message: 'mid power transition',
      fix: 'wait',
    };
    const result = await runDirect('pf', {
      preflight: async (_spec, clusters) => ({
        clusters: clusters.map((c) => ({ ...c, ok: c.name !== 'pf-b', checks: c.name === 'pf-b' ? [check] : [] })),
        imageSetsToCopy: [],
        warnings: [],
      }),
    });
    expect(result).toMatchObject({ phase: 'Succeeded', moved: 1 });
    const rel = await relocation('pf');
    expect(rel.status?.clusters?.map((c) => [c.name, c.state, c.hub])).toEqual([
      ['pf-a', 'moved', WEST],
      ['pf-b', 'preflight-failed', EAST],
    ]);
    expect(rel.status?.clusters?.[1]).toMatchObject({ reason: 'power-transition', checks: [check] });
    expect(await cd(EAST, 'pf-b')).toBeDefined();
  }, 120_000);

  it('a cluster Hive does not move in time fails with reason Timeout and stays where it is', async () => {
    await install('stuck');
    // Hive skips a paused ClusterDeployment entirely (REFERENCE.md §6 step 1).
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'stuck', name: 'stuck' },
      {
        metadata: { annotations: { 'hive.openshift.io/reconcile-pause': 'true' } },
      },
    );
    await createRelocation('stuck', ['stuck']);
    const result = await runDirect('stuck', { clusterTimeoutMs: 2_000 });
    expect(result).toMatchObject({ phase: 'Failed', failed: 1 });
    const rel = await relocation('stuck');
    expect(rel.status?.clusters?.[0]).toMatchObject({ state: 'failed', hub: EAST, reason: 'Timeout' });
    const source = (await cd(EAST, 'stuck'))!;
    expect(source.metadata.labels?.['beekeeper.io/relocation']).toBeUndefined();
    expect(await cd(WEST, 'stuck')).toBeUndefined();
  }, 120_000);

  it('a run stopped mid-relocation (a worker gone) is resumed by the job, and no cluster moves twice', async () => {
    await install('rs-a');
    await install('rs-b');
    await createRelocation('rs', ['rs-a', 'rs-b'], { size: 1 });
    const stop = new AbortController();
    const off = bed.system.store.onChange<Relocation>('Relocation', (_hub, _type, r) => {
      if (r.metadata.name === 'rs' && r.status?.clusters?.[0]?.state === 'moved')
        stop.abort(new Error('worker killed'));
    });
    await expect(runDirect('rs', {}, stop.signal)).rejects.toThrow();
    off();
    const firstCopy = (await cd(WEST, 'rs-a'))!.metadata.uid;
    const job = await enqueue('rs');
    const done = await bed.system.queue.waitUntilDone(job.id, 120_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    const rel = await relocation('rs');
    expect(rel.status?.phase).toBe('Succeeded');
    expect(rel.status?.clusters?.map((c) => [c.name, c.state, c.hub])).toEqual([
      ['rs-a', 'moved', WEST],
      ['rs-b', 'moved', WEST],
    ]);
    expect((await cd(WEST, 'rs-a'))!.metadata.uid).toBe(firstCopy);
    expect(await cd(EAST, 'rs-b')).toBeUndefined();
  }, 180_000);
});
