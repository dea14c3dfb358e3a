// `enforce: true` decides as the sweeps and the preview do (the one planner): a cluster the preview shows as held
// by a skip-next-hibernation override made at night is left running, while its neighbour resumed by hand is put
// back to sleep; a cluster kept awake is woken again when someone hibernates it by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SchedulePreview } from '../../src/services/schedules/preview.js';
import { adoptCluster, cd, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'strict';
let bed: Bed;
let timers: ScheduleTimers | undefined;
const power = (name: string) => cd(bed, NS, name).spec?.powerState ?? 'Running';
const ref = (name: string) => ({ hub: HUB, namespace: NS, name });

const specIs = (name: string, state: string) =>
  bed.system.store.waitFor(
    'ClusterDeployment',
    ref(name),
    (o) => ((o as { spec?: { powerState?: string } } | undefined)?.spec?.powerState === state ? true : undefined),
    { timeoutMs: 30_000 },
  );

beforeAll(async () => {
  // Sunday; by Tuesday the clusters are past their 24h install grace.
  bed = await startBed(at('2026-11-22T10:00:00Z'));
  await Promise.all([adoptCluster(bed, NS, 'held'), adoptCluster(bed, NS, 'free'), adoptCluster(bed, NS, 'awake')]);
  bed.clock.set(at('2026-11-24T12:00:00Z'));
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'strict',
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      enforce: true,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: 'beekeeper', name: 'strict' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('enforce: true follows the one planner', () => {
  it('a skip-next-hibernation made at night keeps a cluster resumed by hand running, as the preview says; its neighbour is hibernated again', async () => {
    bed.clock.set(at('2026-11-24T18:00:00.500Z'));
    const swept = await waitJob(bed, `${HUB}.${jobIds.sweep('strict', at('2026-11-24T18:00:00Z'))}`);
    expect(swept.state).toBe('completed');
    await Promise.all([waitPower(bed, NS, 'held', 'Hibernating'), waitPower(bed, NS, 'free', 'Hibernating')]);

    bed.clock.set(at('2026-11-24T19:00:00Z'));
    const made = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/held/overrides`,
      payload: { type: 'skipNextHibernation', by: 'cy', reason: 'working late tonight' },
    });
    expect(made.statusCode, made.body).toBe(201);
    await bed.system.store.waitFor(
      'ClusterOverride',
      { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.held.skip-next-hibernation` },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    // What the preview says a run would do now: leave `held` alone.
    const preview = (
      await bed.app.inject({ method: 'GET', url: '/v1/schedules/strict/preview' })
    ).json<SchedulePreview>();
    expect(preview.runNow?.skippedClusters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'held', reason: 'SkipNextHibernationOverride' })]),
    );
    const view = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/held/schedule` })).json();
    expect(view.actionableNow).toMatchObject({ ok: false, reason: 'SkipNextHibernationOverride' });

    const reconcilesOf = async (name: string) =>
      (await bed.system.queue.list({ type: 'schedule.reconcile-cluster', limit: 50 })).filter(
        (j) => j.target?.name === name,
      );
    // Enforcement may have raced the 18:00 sweep; what counts is what it does after the override.
    const before = new Set((await reconcilesOf('held')).map((j) => j.id));
    await bed.system.store.mergePatch('ClusterDeployment', ref('held'), { spec: { powerState: 'Running' } });
    await waitPower(bed, NS, 'held', 'Running');
    // Then the neighbour, without an override: the timers see held's changes first, so once free is put back to
    // sleep, whatever enforcement was coming for held has been enqueued.
    await bed.system.store.mergePatch('ClusterDeployment', ref('free'), { spec: { powerState: 'Running' } });
    await specIs('free', 'Hibernating');
    expect((await reconcilesOf('held')).filter((j) => !before.has(j.id))).toEqual([]);
    expect(power('held')).toBe('Running');
  });

  it('a cluster kept awake and hibernated by hand is woken again, as its schedule view says it should run', async () => {
    const made = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/awake/overrides`,
      payload: { type: 'keepAwake', until: '2026-11-24T22:00:00Z', by: 'di', reason: 'migration running' },
    });
    expect(made.statusCode, made.body).toBe(201);
    await bed.system.store.waitFor(
      'ClusterOverride',
      { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.awake.keep-awake` },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    const view = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/awake/schedule` })).json();
    expect(view.desired).toMatchObject({
      state: 'Running',
      reason: expect.stringMatching(/keep-awake override by di/),
    });
    // Swept at 18:00 with the others; its owner wakes it for the migration, then someone hibernates it by hand.
    await bed.system.store.mergePatch('ClusterDeployment', ref('awake'), { spec: { powerState: 'Running' } });
    await waitPower(bed, NS, 'awake', 'Running');
    await bed.system.store.mergePatch('ClusterDeployment', ref('awake'), { spec: { powerState: 'Hibernating' } });
    await waitPower(bed, NS, 'awake', 'Hibernating');
    await specIs('awake', 'Running');
    await waitPower(bed, NS, 'awake', 'Running');
  });
});
