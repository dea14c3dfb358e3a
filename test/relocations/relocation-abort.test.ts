// The relocation job aborted (run-kit.ts) between waves, mid-move and after Hive copied, every cluster on exactly one
// hub; and what else leaves a cluster alone while a relocation moves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { powerEligibility } from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { clusterExpiry } from '../../src/services/expiry/targets.js';
import type { KubeObject } from '../../src/services/ports.js';
import { WARN_JOB } from '../../src/services/expiry/warn.js';
import { jobOf } from '../../src/services/job-definition.js';
import type { Relocation } from '../../src/services/relocations/relocation-run.js';
import { EAST, WEST, startTwoHubBed, type TwoHubBed } from './support.js';
import { runKit, RELOCATE } from './run-kit.js';

describe('the relocation job', () => {
  let bed: TwoHubBed;
  beforeAll(async () => {
    bed = await startTwoHubBed();
  }, 60_000);
  afterAll(() => bed?.close());
  const { cd, relRef, install, createRelocation, enqueue, runDirect, relocation } = runKit(() => bed);

  it('aborted between waves: the first wave moved, the rest stays, every cluster on exactly one hub', async () => {
    await install('ab-a');
    await install('ab-b');
    await createRelocation('ab', ['ab-a', 'ab-b'], { size: 1, pauseSeconds: 3600 });
    const job = await enqueue('ab');
    await bed.system.store.waitFor<Relocation, true>(
      'Relocation',
      relRef('ab'),
      (r) => (r?.status?.clusters?.[0]?.state === 'moved' ? true : undefined),
      { timeoutMs: 60_000 },
    );
    expect((await bed.system.queue.get(job.id))?.state).toBe('active');
    await bed.system.store.mergePatch('Relocation', relRef('ab'), {
      spec: { abort: { requestedAt: new Date(bed.clock.now()).toISOString(), by: 'test' } },
    });
    const done = await bed.system.queue.waitUntilDone(job.id, 60_000);
    expect(done.state, JSON.stringify(done.error)).toBe('completed');
    const rel = await relocation('ab');
    expect(rel.status?.phase).toBe('Aborted');
    expect(rel.status?.clusters?.map((c) => [c.name, c.state, c.hub])).toEqual([
      ['ab-a', 'moved', WEST],
      ['ab-b', 'aborted', EAST],
    ]);
    expect(await cd(EAST, 'ab-a')).toBeUndefined();
    expect(await cd(WEST, 'ab-a')).toBeDefined();
    expect(await cd(EAST, 'ab-b')).toBeDefined();
    expect(await cd(WEST, 'ab-b')).toBeUndefined();
    expect(
      await bed.system.store.get('ClusterRelocate', { hub: EAST, ...rel.status!.clusterRelocate! }),
    ).toBeUndefined();
  }, 180_000);

  it('aborted mid-move: the match is removed, the cluster stays on the source, intact and unlabelled', async () => {
    await install('ab-mid');
    // Paused, so Hive holds the move where it is and the abort finds it in flight.
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'ab-mid', name: 'ab-mid' },
      { metadata: { annotations: { 'hive.openshift.io/reconcile-pause': 'true' } } },
    );
    await createRelocation('ab-mid', ['ab-mid']);
    const run = runDirect('ab-mid');
    await bed.system.store.waitFor<Relocation, true>(
      'Relocation',
      relRef('ab-mid'),
      (r) => (r?.status?.clusters?.[0]?.state === 'moving' ? true : undefined),
      { timeoutMs: 30_000 },
    );
    await bed.system.store.mergePatch('Relocation', relRef('ab-mid'), {
      spec: { abort: { requestedAt: new Date(bed.clock.now()).toISOString(), by: 'test' } },
    });
    expect(await run).toMatchObject({ phase: 'Aborted', aborted: 1 });
    const rel = await relocation('ab-mid');
    expect(rel.status?.clusters?.[0]).toMatchObject({ state: 'aborted', hub: EAST });
    const source = (await cd(EAST, 'ab-mid'))!;
    expect(source.metadata.deletionTimestamp).toBeUndefined();
    expect(source.metadata.labels?.['beekeeper.io/relocation']).toBeUndefined();
    expect(await cd(WEST, 'ab-mid')).toBeUndefined();
    expect(
      await bed.system.store.get('ClusterRelocate', { hub: EAST, ...rel.status!.clusterRelocate! }),
    ).toBeUndefined();
  }, 120_000);

  it('aborted after Hive copied it and before it finished: the copy goes, nothing deprovisioned, one hub', async () => {
    await install('ab-late');
    // Hive copies the ClusterDeployment last, then marks the source complete with an update our unlabel makes stale
    // (409): its next pass finds no match and clears `outgoing`, so the source stays and the copy is left behind.
    // The slow create holds Hive between the two for as long as the abort takes to land.
    const west = bed.sim.hubs[1]!.server;
    west.faults.set({ latency: [{ verb: 'create', resource: 'clusterdeployments', ms: 3_000 }] });
    const deprovisions: string[] = [];
    const off = west.store.subscribe((e) => {
      if (e.obj?.kind === 'ClusterDeprovision') deprovisions.push(`${e.type} ${e.key}`);
    });
    try {
      await createRelocation('ab-late', ['ab-late']);
      const run = runDirect('ab-late');
      // Hive copies the Secrets before the ClusterDeployment: one on the destination means the copy is under way.
      for (let i = 0; i < 200; i++) {
        if (await bed.system.store.get('Secret', { hub: WEST, namespace: 'ab-late', name: 'aws-creds' })) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await bed.system.store.mergePatch('Relocation', relRef('ab-late'), {
        spec: { abort: { requestedAt: new Date(bed.clock.now()).toISOString(), by: 'test' } },
      });
      expect(await run).toMatchObject({ phase: 'Aborted', aborted: 1 });
    } finally {
      west.faults.clear();
      off();
    }
    const rel = await relocation('ab-late');
    expect(rel.status?.clusters?.[0]).toMatchObject({
      state: 'aborted',
      hub: EAST,
      message: expect.stringContaining('removed'),
    });
    const source = (await cd(EAST, 'ab-late'))!;
    expect(source.metadata.deletionTimestamp).toBeUndefined();
    expect(source.metadata.annotations?.[RELOCATE]).toBeUndefined();
    expect(source.metadata.labels?.['beekeeper.io/relocation']).toBeUndefined();
    expect(await cd(WEST, 'ab-late')).toBeUndefined();
    // Removed with preserveOnDelete: the destination's Hive let it go without deprovisioning the cluster.
    expect(deprovisions).toEqual([]);
  }, 120_000);

  it("leaves a cluster a relocation is moving alone: a person's power change and delete, a schedule, an expiry warning, each saying which relocation", async () => {
    await install('busy', { expiresIn: '8h' });
    // What a wave does first: the relocation's label, before Hive marks the cluster outgoing.
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'busy', name: 'busy' },
      {
        metadata: { labels: { 'beekeeper.io/relocation': 'r-42' } },
      },
    );
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: EAST, namespace: 'busy', name: 'busy' },
      (c) => (c?.metadata.labels?.['beekeeper.io/relocation'] ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const res = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${EAST}/busy/busy/hibernate` });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ detail: string }>().detail).toContain('relocation r-42 is moving it');
    expect((await cd(EAST, 'busy'))!.spec.powerState ?? 'Running').toBe('Running');
    const del = await bed.app.inject({ method: 'DELETE', url: `/v1/clusters/${EAST}/busy/busy` });
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json<{ detail: string }>().detail).toContain('relocation r-42 is moving it');
    expect((await cd(EAST, 'busy'))!.metadata.deletionTimestamp).toBeUndefined();
    const cached = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', {
      hub: EAST,
      namespace: 'busy',
      name: 'busy',
    })!;
    expect(powerEligibility(cached, 'hibernate')).toMatchObject({
      ok: false,
      reason: 'Relocating',
      message: expect.stringContaining('relocation r-42 is moving it'),
    });

    // An expiry warning falling due meanwhile is held back (retried), with an Event saying why.
    const expiresAt = new Date(clusterExpiry(EAST, cached)!.expiresAtMs).toISOString();
    const warn = await bed.system.queue.enqueue(
      jobOf(WARN_JOB, { hub: EAST, namespace: 'busy', name: 'busy', kind: 'ClusterDeployment', expiresAt, lead: '8h' }),
      { hub: EAST },
    );
    const events = async () =>
      (
        await bed.system.store.list<KubeObject & { reason?: string; message?: string }>('Event', EAST, {
          namespace: 'busy',
        })
      ).filter((e) => e.reason === 'Relocating');
    for (let i = 0; i < 100 && (await events()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await events())[0]?.message).toContain('held back: relocation r-42 is moving it');
    expect((await bed.system.queue.get(warn.id))?.state).not.toBe('completed');
    expect(
      (await bed.system.store.list<KubeObject & { reason?: string }>('Event', EAST, { namespace: 'busy' })).some(
        (e) => e.reason === 'ExpiryWarning',
      ),
    ).toBe(false);
  }, 120_000);
});
