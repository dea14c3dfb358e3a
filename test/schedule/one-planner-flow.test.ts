// The preview, the dry run, the run and the edge sweep come from one planner: for the same schedule, clusters and
// overrides, what the preview says is what the dry run reports and what the run or the edge sweep does to the
// clusters on the simulator, with a skip-next-hibernation and a keep-awake override in play.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SchedulePreview } from '../../src/services/schedules/preview.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import type { JobView } from '../../src/services/ports.js';
import { adoptCluster, cd, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'planner';
const NAMES = ['u', 'v', 'w', 'x', 'y', 'z'];
let bed: Bed;
let timers: ScheduleTimers | undefined;

type Outcomes = Record<string, string>;
type Entry = { clusters?: Array<{ name: string }>; skippedClusters?: Array<{ name: string; reason: string }> };
/** cluster -> "acts" or the reason it is skipped. */
const ofEntry = (e: Entry): Outcomes =>
  Object.fromEntries([
    ...(e.clusters ?? []).map((c) => [c.name, 'acts']),
    ...(e.skippedClusters ?? []).map((c) => [c.name, c.reason]),
  ]);
const ofSummary = (s: SweepSummary): Outcomes =>
  Object.fromEntries([...s.acted.map((c) => [c.name, 'acts']), ...s.skipped.map((c) => [c.name, c.reason])]);
const power = (name: string) => cd(bed, NS, name).spec?.powerState ?? 'Running';
const powers = () => Object.fromEntries(NAMES.map((n) => [n, power(n)]));

async function preview(query = ''): Promise<SchedulePreview> {
  const res = await bed.app.inject({ method: 'GET', url: `/v1/schedules/office/preview${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SchedulePreview>();
}

async function run(dryRun: boolean): Promise<SweepSummary> {
  const res = await bed.app.inject({
    method: 'POST',
    url: `/v1/schedules/office/run?wait=30${dryRun ? '&dryRun=true' : ''}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  const job = res.json<{ job: JobView }>().job;
  expect(job.state).toBe('completed');
  return job.result as SweepSummary;
}

async function override(name: string, body: object) {
  const res = await bed.app.inject({
    method: 'POST',
    url: `/v1/clusters/${HUB}/${NS}/${name}/overrides`,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const type = (body as { type: string }).type === 'keepAwake' ? 'keep-awake' : 'skip-next-hibernation';
  await bed.system.store.waitFor(
    'ClusterOverride',
    { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.${name}.${type}` },
    (o) => o,
    { timeoutMs: 10_000 },
  );
}

async function resumeByHand(name: string) {
  await waitPower(bed, NS, name, 'Hibernating');
  await bed.system.store.mergePatch(
    'ClusterDeployment',
    { hub: HUB, namespace: NS, name },
    { spec: { powerState: 'Running' } },
  );
  await waitPower(bed, NS, name, 'Running');
}

async function edgeSweep(iso: string): Promise<SweepSummary> {
  bed.clock.set(at(iso) + 500);
  const job = await waitJob(bed, `${HUB}.${jobIds.sweep('office', at(iso))}`);
  expect(job.state).toBe('completed');
  return job.result as SweepSummary;
}

beforeAll(async () => {
  // Sunday; by Tuesday the clusters are past their 24h install grace.
  bed = await startBed(at('2026-11-22T10:00:00Z'));
  await Promise.all(NAMES.map((n) => adoptCluster(bed, NS, n)));
  bed.clock.set(at('2026-11-24T12:00:00Z')); // Tuesday 13:00 in Berlin
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'office',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: 'beekeeper', name: 'office' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  await override('y', { type: 'skipNextHibernation', by: 'bo', reason: 'soak test tonight' });
  await override('z', { type: 'keepAwake', until: '2026-11-24T20:00:00Z', by: 'ana', reason: 'customer demo' });
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('one planner for preview, dry run, run and edge sweep', () => {
  it('by day, a run now is what the preview says (nothing to do), and so is its dry run', async () => {
    const p = await preview();
    expect(p.runNow).toMatchObject({ action: 'resume' });
    const dry = await run(true);
    expect(ofSummary(dry)).toEqual(ofEntry(p.runNow!));
    expect(ofSummary(dry)).toEqual(Object.fromEntries(NAMES.map((n) => [n, 'AlreadyInState'])));
  });

  it('the 18:00 edge sweep does to each cluster what the preview said for that edge', async () => {
    const next = (await preview('?days=1')).edges[0]!;
    expect(next).toMatchObject({
      at: '2026-11-24T17:00:00.000Z',
      local: '2026-11-24T18:00:00.000+01:00',
      action: 'hibernate',
    });
    expect(ofEntry(next)).toEqual({
      u: 'acts',
      v: 'acts',
      w: 'acts',
      x: 'acts',
      y: 'SkipNextHibernationOverride',
      z: 'KeepAwakeOverride',
    });
    const swept = await edgeSweep('2026-11-24T17:00:00Z');
    expect(ofSummary(swept)).toEqual(ofEntry(next));
    expect(powers()).toEqual({
      u: 'Hibernating',
      v: 'Hibernating',
      w: 'Hibernating',
      x: 'Hibernating',
      y: 'Running',
      z: 'Running',
    });
  });

  it('at night, the dry run and the run skip a cluster whose next hibernation is skipped, as the preview says, and leave the override for the next edge', async () => {
    // Three people resume their clusters by hand after 18:00; one asks to skip the next hibernation, one to stay awake.
    for (const n of ['u', 'v', 'w']) await resumeByHand(n);
    bed.clock.set(at('2026-11-24T18:30:00Z'));
    await override('w', { type: 'skipNextHibernation', by: 'cy', reason: 'working late tonight' });
    await override('v', { type: 'keepAwake', until: '2026-11-24T21:00:00Z', by: 'di', reason: 'migration running' });
    const expected = {
      u: 'acts',
      v: 'KeepAwakeOverride',
      w: 'SkipNextHibernationOverride',
      x: 'AlreadyInState',
      y: 'SkipNextHibernationOverride',
      z: 'KeepAwakeOverride',
    };

    const dry = await run(true);
    expect(dry).toMatchObject({ mode: 'manual', dryRun: true, edge: { action: 'hibernate' } });
    expect(ofSummary(dry)).toEqual(expected);
    const before = await preview();
    expect(before.runNow).toMatchObject({ action: 'hibernate' });
    expect(ofEntry(before.runNow!)).toEqual(expected);
    // The preview's next hibernation also skips w: that is the hibernation its override is for.
    const wednesday = before.edges.find((e) => e.at === '2026-11-25T17:00:00.000Z' && e.action === 'hibernate')!;
    expect(ofEntry(wednesday)).toMatchObject({ w: 'SkipNextHibernationOverride', u: 'acts' });

    const real = await run(false);
    expect(ofSummary(real)).toEqual(expected);
    expect(powers()).toEqual({
      u: 'Hibernating',
      v: 'Running',
      w: 'Running',
      x: 'Hibernating',
      y: 'Running',
      z: 'Running',
    });
    // A run uses up no override: w's still skips Wednesday's hibernation, as the preview said before the run.
    const overrides = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/w/overrides` })).json()
      .items;
    expect(overrides).toEqual([expect.objectContaining({ type: 'skipNextHibernation', phase: 'Active' })]);
    const after = await preview();
    expect(ofEntry(after.edges.find((e) => e.at === wednesday.at && e.action === 'hibernate')!)).toEqual(
      ofEntry(wednesday),
    );
    await waitPower(bed, NS, 'u', 'Hibernating');
  });

  it("the next day's edge sweep skips w exactly as the preview said the night before, and uses the override up", async () => {
    const resumed = await edgeSweep('2026-11-25T07:00:00Z');
    expect(resumed.acted.map((c) => c.name).sort()).toEqual(['u', 'x']);
    await Promise.all(['u', 'x'].map((n) => waitPower(bed, NS, n, 'Running')));
    bed.clock.set(at('2026-11-25T12:00:00Z'));
    const next = (await preview('?days=1')).edges[0]!;
    expect(next).toMatchObject({ at: '2026-11-25T17:00:00.000Z', action: 'hibernate' });
    expect(ofEntry(next)).toEqual({
      u: 'acts',
      v: 'acts',
      w: 'SkipNextHibernationOverride',
      x: 'acts',
      y: 'acts',
      z: 'acts',
    });
    const swept = await edgeSweep('2026-11-25T17:00:00Z');
    expect(ofSummary(swept)).toEqual(ofEntry(next));
    expect(powers()).toEqual({
      u: 'Hibernating',
      v: 'Hibernating',
      w: 'Running',
      x: 'Hibernating',
      y: 'Hibernating',
      z: 'Hibernating',
    });
    const overrides = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/w/overrides` })).json()
      .items;
    expect(overrides).toEqual([expect.objectContaining({ type: 'skipNextHibernation', phase: 'Consumed' })]);
  });
});
