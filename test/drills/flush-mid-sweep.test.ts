// Drill (issue 9, "Proof"; before it, 168 of 250 clusters stayed awake and lastSweep stayed empty until a scheduler
// restart): a schedule's hibernate edge over 250 clusters, and FLUSHALL while its sweep is under way. The scheduler's
// resync (every 2 s here) finds the edge unswept within its catch-up deadline and sweeps it again under its
// deterministic id: every cluster ends Hibernating, each changed exactly once (counted by a watch on the hub),
// status.lastSweep is written, and no process was restarted.
// Separate api, worker and scheduler processes on a private Redis and a simulated hub (test/drills/harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResource } from '../../src/sim/client/index.js';
import { adoptClusters } from './clusters.js';
import { report, scaled, startDrill, STATE_NS, tally, until, type Drill } from './harness.js';
import { watchPowerChanges, type PowerChanges } from './power-changes.js';
import { CLEAN, figures } from './queued-hibernates.js';

/** 250 clusters full size, at least 100: the sweep of 100 still takes seconds at 60 requests/s, and the flush comes at 25. */
const N = scaled(250, 100);
const NS = 'swept';
const SCHEDULES: ApiResource = {
  group: 'beekeeper.io',
  version: 'v1beta1',
  plural: 'hibernationschedules',
  kind: 'HibernationSchedule',
  namespaced: true,
};
const names = Array.from({ length: N }, (_, i) => `${NS}-${String(i).padStart(3, '0')}`);
let drill: Drill;
let power: PowerChanges;

beforeAll(async () => {
  // The hub's request budget at 60 a second, so the sweep's patches and Events take seconds and the flush lands
  // in the middle of it.
  drill = await startDrill({
    env: { BEEKEEPER_RESYNC_INTERVAL_SECONDS: '2', BEEKEEPER_KUBE_QPS: '60', BEEKEEPER_KUBE_BURST: '60' },
  });
  await adoptClusters(drill.kube(), NS, names);
  power = watchPowerChanges(drill.kube(), NS);
  await until(`all ${N} clusters report Running`, () => names.every((n) => power.now(n) === 'Running'), 60_000);
}, 180_000);

afterAll(async () => {
  power?.stop();
  await drill?.close();
});

describe(`drill: FLUSHALL in the middle of an edge sweep over ${N} clusters`, () => {
  it('the resync sweeps the edge again: every cluster hibernated exactly once, lastSweep written, no restart', async () => {
    const pids = drill.roles.map((r) => r.pid);
    // Schedules have whole-minute edges, and an edge from before the schedule existed is never acted on: the next
    // minute at least 5 s away, in UTC; the resume edge half a day later.
    const edgeMs = Math.ceil((Date.now() + 5_000) / 60_000) * 60_000;
    const edge = new Date(edgeMs);
    const resume = new Date(edgeMs + 12 * 3_600_000);
    const created = await drill.api('POST', '/v1/schedules', {
      name: 'nightly',
      timeZone: 'UTC',
      cron: {
        hibernate: `${edge.getUTCMinutes()} ${edge.getUTCHours()} * * *`,
        resume: `${resume.getUTCMinutes()} ${resume.getUTCHours()} * * *`,
      },
      targets: { namespaces: [NS] },
      // The drill's clusters were installed a moment ago.
      safety: { allowHibernationInFirstDay: { reason: 'drill clusters, no certificates to rotate' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    await until(
      'the sweep has hibernated some clusters',
      () => power.asked('Hibernating').length >= 25,
      edgeMs - Date.now() + 60_000,
    );
    await drill.redis.flushAll();
    const atFlush = new Set(power.asked('Hibernating')).size;

    const swept = Date.now();
    await until(
      `all ${N} clusters report Hibernating`,
      () => names.every((n) => power.now(n) === 'Hibernating'),
      120_000,
    );
    let lastSweep: { edge?: string; finishedAt?: string; failed?: number } | undefined;
    await until(
      'the schedule records its sweep',
      async () => {
        lastSweep = (await drill.kube().get(SCHEDULES, STATE_NS, 'nightly'))?.status?.lastSweep;
        return Boolean(lastSweep?.finishedAt);
      },
      60_000,
    );
    const repairMs = Date.now() - swept;
    const scheduler = drill.roles.find((r) => r.role === 'scheduler')!;
    const repairs = [...(await drill.metrics(scheduler))].filter(([k]) =>
      k.startsWith('beekeeper_resync_repairs_total'),
    );

    const hibernated = tally(names, power.reached('Hibernating'));
    const asked = tally(names, power.asked('Hibernating'));
    report('flush-mid-sweep', asked);
    console.log(
      `drill flush-mid-sweep: hibernated ${figures(hibernated)}; spec changes ${figures(asked)}; ${atFlush} of ${N} asked before the flush; ` +
        `all Hibernating and lastSweep ${JSON.stringify(lastSweep)} ${repairMs} ms after the flush; resync repairs ${JSON.stringify(Object.fromEntries(repairs))}`,
    );
    // The positive control: the flush took part of the sweep.
    expect(atFlush).toBeLessThan(N);
    expect(hibernated, JSON.stringify(hibernated.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(asked, JSON.stringify(asked.examples)).toMatchObject({ expected: N, done: N, ...CLEAN });
    expect(lastSweep).toMatchObject({ edge: edge.toISOString(), failed: 0 });
    expect(repairs.find(([k]) => k.includes('repair="schedule-sweep"'))?.[1]).toBeGreaterThanOrEqual(1);
    // No process was restarted to get there.
    expect(drill.roles.map((r) => r.pid)).toEqual(pids);
    expect(drill.roles.every((r) => r.running())).toBe(true);
  }, 300_000);
});
