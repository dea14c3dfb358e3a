// Issue 9: a FLUSHALL during an edge sweep left most clusters in the wrong power state, with lastSweep and
// lastMissed empty, until a scheduler restart. The resync finds the edge unswept within its catch-up deadline and
// sweeps it again under its deterministic id: every cluster ends hibernated, each patched once, and the repair is
// counted in the metric, an Event on the schedule and the beekeeper-resync record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/services/ports.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { adoptCluster, createOfficeHours, events, HUB, startBed, waitJob, type Bed } from './support.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

const at = (iso: string) => Date.parse(iso);
const CLUSTERS = 50;
const NS = 'fleet';
const names = Array.from({ length: CLUSTERS }, (_, i) => `c${String(i).padStart(2, '0')}`);
let redis: PrivateRedis;
let bed: Bed;

beforeAll(async () => {
  redis = await startPrivateRedis();
  // Two PATCHes in flight and a slow hub (150 ms a PATCH below), so the flush lands while most of the sweep's
  // clusters are still to be patched: at the default 32 in flight the sweep was nearly done by then.
  bed = await startBed(at('2026-11-22T10:00:00Z'), {
    env: {
      REDIS_URL: redis.url,
      BEEKEEPER_CONCURRENCY: '2',
      BEEKEEPER_SWEEP_CONCURRENCY: '2',
      BEEKEEPER_RESYNC_INTERVAL_SECONDS: '86400',
    },
    roles: ['api', 'worker', 'scheduler'],
  });
  for (let i = 0; i < CLUSTERS; i += 10) await Promise.all(names.slice(i, i + 10).map((n) => adoptCluster(bed, NS, n)));
  bed.clock.set(at('2026-11-23T12:00:00Z')); // past the install grace period
  await createOfficeHours(bed, 'fleet', NS, { timeZone: 'UTC', catchUpDeadline: '2h' });
}, 180_000);

afterAll(async () => {
  await bed?.close();
  await redis?.close();
});

describe('a flush during an edge sweep', () => {
  it('is repaired by the next resync: every cluster hibernated once, lastSweep written, the repair counted', async () => {
    const { store } = bed.system;
    // Every change of spec.powerState, per cluster, as the informer sees them.
    const requested = new Map(names.map((n) => [n, 'Running']));
    const hibernations = new Map<string, number>();
    const hibernated = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => [...hibernations.values()].reduce((a, b) => a + b, 0) >= n && (off(), resolve());
        const off = store.onChange<ClusterDeployment>('ClusterDeployment', (_hub, _type, cd) => {
          if (cd.metadata.namespace !== NS) return;
          const now = cd.spec?.powerState ?? 'Running';
          if (now !== requested.get(cd.metadata.name) && now === 'Hibernating')
            hibernations.set(cd.metadata.name, (hibernations.get(cd.metadata.name) ?? 0) + 1);
          requested.set(cd.metadata.name, now);
          check();
        });
        check();
      });
    const counting = hibernated(CLUSTERS);
    bed.sim.hubs[0]!.server.faults.set({ latency: [{ verb: 'patch', resource: 'clusterdeployments', ms: 150 }] });

    bed.clock.set(at('2026-11-23T18:00:00.500Z'));
    await hibernated(5);
    await redis.flushAll();
    const done = [...hibernations.keys()].length;
    expect(done).toBeLessThan(CLUSTERS / 2); // the positive control: the flush took most of the sweep

    const run = await bed.system.resync!.runOnce();
    expect(run?.repairs).toEqual({ 'schedule-sweep': 1 });
    const summary = (await waitJob(bed, `${HUB}.${jobIds.sweep('fleet', at('2026-11-23T18:00:00Z'))}`, 60_000))
      .result as SweepSummary;
    expect(summary.counts.failed).toBe(0);
    await counting;
    bed.sim.hubs[0]!.server.faults.clear();

    for (const n of names)
      expect(
        store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: NS, name: n })?.spec?.powerState,
      ).toBe('Hibernating');
    expect([...hibernations.values()].every((c) => c === 1)).toBe(true);
    const acted = (
      await store.list<KubeObject & { reason?: string; involvedObject?: { name?: string } }>('Event', HUB, {
        namespace: NS,
      })
    ).filter((e) => e.reason === 'ScheduledHibernate');
    expect(acted).toHaveLength(CLUSTERS);
    expect(new Set(acted.map((e) => e.involvedObject?.name)).size).toBe(CLUSTERS);

    const schedule = await store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'fleet' },
      (o) =>
        (o as { status?: { lastSweep?: { edge?: string; finishedAt?: string } } } | undefined)?.status?.lastSweep
          ?.finishedAt
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    expect((schedule as { status?: { lastSweep?: unknown } }).status?.lastSweep).toMatchObject({
      edge: '2026-11-23T18:00:00.000Z',
      mode: 'edge',
    });

    const metrics = await bed.system.metrics.registry.getSingleMetricAsString('beekeeper_resync_repairs_total');
    expect(metrics).toContain('beekeeper_resync_repairs_total{repair="schedule-sweep"} 1');
    expect((await events(bed, 'beekeeper', 'fleet')).filter((e) => e.reason === 'ResyncRepaired')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /hibernate edge at 2026-11-23T18:00:00.000Z is not swept and its sweep job was gone/,
        ),
      }),
    ]);
    expect((await bed.app.inject({ method: 'GET', url: '/v1/resync' })).json()).toMatchObject({
      intervalSeconds: 86400,
      lastResync: { trigger: 'manual', repairs: { 'schedule-sweep': 1 } },
    });

    // Level-triggered, not repeated: the next run finds the edge swept and repairs nothing.
    expect((await bed.system.resync!.runOnce('next'))?.repairs).toEqual({});
  }, 180_000);

  it('an edge that passed its catch-up deadline while Redis was down is recorded as missed, not replayed', async () => {
    await redis.stop();
    bed.clock.set(at('2026-11-24T08:00:00.500Z')); // the resume edge: its sweep cannot be enqueued
    // The timers move on to the next edge (and re-check the schedule when its status says so) ...
    await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'fleet' },
      (o) =>
        (o as { status?: { nextEdge?: { at?: string } } } | undefined)?.status?.nextEdge?.at ===
        '2026-11-24T18:00:00.000Z'
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    bed.clock.set(at('2026-11-24T10:30:00Z')); // ... and nothing more happens until 2.5 h later, beyond the 2h catchUpDeadline
    const recovered = new Promise((resolve) => bed.system.resync!.onRun((r) => r.trigger === 'recovery' && resolve(r)));
    await redis.start();
    expect(await recovered).toMatchObject({ repairs: { 'schedule-missed': 1 } });
    const schedule = await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'fleet' },
      (o) =>
        (o as { status?: { lastMissed?: { edge?: string } } } | undefined)?.status?.lastMissed?.edge ? o : undefined,
      { timeoutMs: 10_000 },
    );
    expect((schedule as { status?: { lastMissed?: unknown } }).status?.lastMissed).toMatchObject({
      edge: '2026-11-24T08:00:00.000Z',
      action: 'resume',
    });
    expect(
      bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: NS, name: names[0]! })
        ?.spec?.powerState,
    ).toBe('Hibernating');
  }, 60_000);
});
