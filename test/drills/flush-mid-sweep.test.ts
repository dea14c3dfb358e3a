// Drill (issue 9, "Proof"; before it, 168 of 250 clusters stayed awake and lastSweep stayed empty until a scheduler
// restart): a schedule's hibernate edge over 250 clusters, and FLUSHALL while its sweep is under way. The scheduler's
// resync (every 2 s here) finds the edge unswept within its catch-up deadline and sweeps it again under its
// deterministic id: every cluster ends Hibernating, each changed exactly once (counted by a watch on the hub),
// status.lastSweep is written, and no process was restarted. Two clusters carry overrides (ClusterOverrides, not
// Redis): one kept awake until 15 s after the edge, past the flush, hibernates once when that ends; one with
// skip-next-hibernation is skipped by the edge, run twice, and never hibernates.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptRunning } from './clusters.js';
import { report, retryUntilSeen, scaled, startDrill, tally, until, type Drill } from './harness.js';
import { hibernateAtNextMinute, lastSweepOf, startRolesBeforeEdge, type LastSweep } from './kill-drills.js';
import type { PowerChanges } from './power-changes.js';
import { CLEAN, figures } from './queued-hibernates.js';

/** 250 clusters full size, at least 100: the sweep of 100 still takes seconds at 60 requests/s, and the flush comes at 25. */
const N = scaled(250, 100);
const NS = 'swept';
const names = Array.from({ length: N }, (_, i) => `${NS}-${String(i).padStart(3, '0')}`);
/** Kept awake by an override that ends after the flush; spared the edge by a skip-next-hibernation override. */
const KEPT = `${NS}-kept`;
const SKIPPED = `${NS}-skipped`;
const OVERRIDDEN = new Set([KEPT, SKIPPED]);
let drill: Drill;
let power: PowerChanges;

beforeAll(async () => {
  // The hub's request budget at 60 a second, so the sweep's patches and Events take seconds and the flush lands
  // in the middle of it. The roles start once the clusters run, their clocks a little before a whole minute (the edge).
  drill = await startDrill({
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '2', BEEKEEPER_KUBE_QPS: '60', BEEKEEPER_KUBE_BURST: '60' },
    deferRoles: true,
  });
  power = await adoptRunning(drill, NS, [...names, KEPT, SKIPPED]);
  await startRolesBeforeEdge(drill);
}, 180_000);

afterAll(async () => {
  power?.stop();
  await drill?.close();
});

describe(`drill: FLUSHALL in the middle of an edge sweep over ${N} clusters`, () => {
  it('the resync sweeps the edge again: every cluster hibernated exactly once, lastSweep written, no restart', async () => {
    const pids = drill.roles.map((r) => r.pid);
    // Schedules have whole-minute edges: the roles' next minute at least 5 s away (kill-drills.ts).
    const { at: edge } = await hibernateAtNextMinute(drill, 'nightly', [NS]);
    const edgeMs = edge.getTime();
    const keptUntil = new Date(edgeMs + 15_000);
    for (const [name, override] of [
      [KEPT, { type: 'keepAwake', until: keptUntil.toISOString() }],
      [SKIPPED, { type: 'skipNextHibernation' }],
    ] as const) {
      const res = await retryUntilSeen(() =>
        drill.api('POST', `/v1/clusters/east/${NS}/${name}/overrides`, { ...override, by: 'drill', reason: 'drill' }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }

    await until(
      'the sweep has hibernated some clusters',
      () => power.asked('Hibernating').length >= 25,
      edgeMs - drill.now() + 60_000,
    );
    await drill.redis.flushAll();
    const flushedAt = drill.now();
    const atFlush = new Set(power.asked('Hibernating')).size;

    const swept = Date.now();
    await until(
      `all ${N} clusters report Hibernating`,
      () => names.every((n) => power.now(n) === 'Hibernating'),
      120_000,
    );
    let lastSweep: LastSweep | undefined;
    await until(
      'the schedule records its sweep',
      async () => Boolean((lastSweep = await lastSweepOf(drill, 'nightly'))?.finishedAt),
      60_000,
    );
    const repairMs = Date.now() - swept;
    await until('the kept cluster hibernates once its override ends', () => power.now(KEPT) === 'Hibernating', 90_000);
    const keptAfterUntilMs = drill.now() - keptUntil.getTime();
    // A second action on either would come within a resync or two.
    await new Promise((r) => setTimeout(r, 5_000));
    const scheduler = drill.roles.find((r) => r.role === 'scheduler')!;
    const repairs = [...(await drill.metrics(scheduler))].filter(([k]) =>
      k.startsWith('beekeeper_resync_repairs_total'),
    );

    const notOverridden = (list: string[]) => list.filter((n) => !OVERRIDDEN.has(n));
    const hibernated = tally(names, notOverridden(power.reached('Hibernating')));
    const asked = tally(names, notOverridden(power.asked('Hibernating')));
    // The overrides, which live in Kubernetes: the kept cluster hibernated once (after its override ended), the
    // skipped one never.
    const overrides = tally(
      [KEPT],
      power.asked('Hibernating').filter((n) => OVERRIDDEN.has(n)),
    );
    report('flush-mid-sweep', asked);
    report('flush-mid-sweep (overrides)', overrides);
    console.log(
      `drill flush-mid-sweep: hibernated ${figures(hibernated)}; spec changes ${figures(asked)}; ${atFlush} of ${N} asked before the flush; ` +
        `all Hibernating and lastSweep ${JSON.stringify(lastSweep)} ${repairMs} ms after the flush; overrides ${figures(overrides)}, ` +
        `the kept cluster hibernated ${keptAfterUntilMs} ms after its override ended; resync repairs ${JSON.stringify(Object.fromEntries(repairs))}`,
    );
    // The positive controls: the flush took part of the sweep, and the kept cluster's override outlived it.
    expect(atFlush).toBeLessThan(N);
    expect(flushedAt).toBeLessThan(keptUntil.getTime());
    expect(hibernated, JSON.stringify(hibernated.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(asked, JSON.stringify(asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(lastSweep).toMatchObject({ edge: edge.toISOString(), failed: 0 });
    expect(overrides, JSON.stringify(overrides.examples)).toMatchObject({ expected: 1, done: 1, ...CLEAN });
    expect(power.now(SKIPPED)).toBe('Running');
    expect(repairs.find(([k]) => k.includes('repair="schedule-sweep"'))?.[1]).toBeGreaterThanOrEqual(1);
    // No process was restarted to get there.
    expect(drill.roles.map((r) => r.pid)).toEqual(pids);
    expect(drill.roles.every((r) => r.running())).toBe(true);
  }, 300_000);
});
