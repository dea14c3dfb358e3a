import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelocationCluster, RelocationSpec } from '../../src/hive/resources/relocation.js';
import { powerEligibility } from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createLogger } from '../../src/logger.js';
import { clusterExpiry } from '../../src/services/expiry/targets.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import { WARN_JOB } from '../../src/services/expiry/warn.js';
import { jobOf } from '../../src/services/job-definition.js';
import { RELOCATION_RUN_JOB } from '../../src/services/relocations/relocation-jobs.js';
import type { Preflight } from '../../src/services/relocations/preflight-report.js';
import {
  runRelocation,
  type Relocation,
  type RelocationRunDeps,
} from '../../src/services/relocations/relocation-run.js';
import { overrideName, type ClusterOverride } from '../../src/services/schedules/override-store.js';
import { exportKubeconfig } from '../../src/kube/export-kubeconfig.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

const RELOCATE = 'hive.openshift.io/relocate';

describe('the relocation job', () => {
  let bed: TwoHubBed;
  let ns: string;
  beforeAll(async () => {
    bed = await startTwoHubBed();
    ns = bed.config.stateNamespace;
  }, 60_000);
  afterAll(() => bed?.close());

  const cd = (hub: string, namespace: string, name = namespace) =>
    bed.system.store.get<ClusterDeployment>('ClusterDeployment', { hub, namespace, name });
  const relRef = (id: string) => ({ hub: EAST, namespace: ns, name: id });

  async function install(namespace: string, extra: Record<string, unknown> = {}) {
    await prerequisites(bed, EAST, namespace);
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/clusters?wait=60',
      payload: createBody(EAST, namespace, namespace, extra),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ job: JobView }>().job.state).toBe('completed');
  }

  /** The Relocation as POST /v1/relocations writes it: spec, then status seeded with the waves. */
  async function createRelocation(id: string, names: string[], waves: RelocationSpec['waves'] = {}) {
    const size = waves.size ?? names.length;
    const clusters: RelocationCluster[] = names.map((n, i) => ({
      namespace: n,
      name: n,
      wave: Math.floor(i / size) + 1,
      state: 'pending',
      hub: EAST,
    }));
    await bed.system.store.create<Relocation>('Relocation', EAST, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'Relocation',
      metadata: { name: id, namespace: ns },
      spec: {
        from: EAST,
        to: WEST,
        clusters: names.map((n) => ({ namespace: n, name: n })),
        waves,
        requestedBy: 'test',
        requestedAt: new Date(bed.clock.now()).toISOString(),
      },
    });
    await bed.system.store.mergePatch(
      'Relocation',
      relRef(id),
      { status: { phase: 'Pending', clusters, waves: { total: Math.max(...clusters.map((c) => c.wave)), done: 0 } } },
      { subresource: 'status' },
    );
  }

  const enqueue = (id: string) =>
    bed.system.queue.enqueue(jobOf(RELOCATION_RUN_JOB, { id }), {
      hub: EAST,
      target: { kind: 'Relocation', hub: EAST, namespace: ns, name: id },
    });
  const allOk: Preflight = async (_spec, clusters) => ({
    clusters: clusters.map((c) => ({ ...c, ok: true, checks: [] })),
    imageSetsToCopy: [],
    warnings: [],
  });
  /** The job's handler run in the test, with its dependencies chosen here. */
  const runDirect = (id: string, opts: Partial<RelocationRunDeps> = {}, signal = new AbortController().signal) =>
    runRelocation(
      {
        store: bed.system.store,
        clock: bed.clock,
        log: createLogger({ level: 'silent' }),
        stateHub: EAST,
        stateNamespace: ns,
        preflight: allOk,
        kubeconfigFor: (hub) => exportKubeconfig(bed.config.hubs.find((h) => h.name === hub)!),
        clusterTimeoutMs: 60_000,
        pollMs: 500,
        ...opts,
      },
      id,
      { step: async () => undefined, signal },
    );
  const relocation = async (id: string) => (await bed.system.store.get<Relocation>('Relocation', relRef(id)))!;

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
