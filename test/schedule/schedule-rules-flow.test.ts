// The rest of the schedule contract on the simulator: bad input changes nothing, dry runs change nothing,
// skip-next-hibernation is consumed by one night, and `enforce: true` undoes manual changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import type { KubeObject } from '../../src/services/ports.js';
import { adoptCluster, cd, events, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

// Thursday 2026-11-19 08:00 UTC; by Friday noon the clusters are past their 24h install grace.
const THURSDAY = Date.parse('2026-11-19T08:00:00Z');
let bed: Bed;
let timers: ScheduleTimers | undefined;
const window = [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }];
const power = (ns: string, name: string) => cd(bed, ns, name).spec?.powerState ?? 'Running';
const post = (url: string, payload: object) => bed.app.inject({ method: 'POST', url, payload });

async function createSchedule(body: object) {
  const res = await post('/v1/schedules', body);
  expect(res.statusCode, res.body).toBe(201);
  const name = (body as { name: string }).name;
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: 'beekeeper', name }, (o) => o, {
    timeoutMs: 10_000,
  });
}

beforeAll(async () => {
  bed = await startBed(THURSDAY);
  await Promise.all([
    adoptCluster(bed, 'dry', 'dry-1'),
    adoptCluster(bed, 'skip', 'skip-1'),
    adoptCluster(bed, 'strict', 'strict-1'),
  ]);
  bed.clock.set(Date.parse('2026-11-20T12:00:00Z'));
  await createSchedule({
    name: 'dry',
    timeZone: 'UTC',
    windows: window,
    targets: { namespaces: ['dry'] },
    dryRun: true,
  });
  await createSchedule({ name: 'skip', timeZone: 'UTC', windows: window, targets: { namespaces: ['skip'] } });
  await createSchedule({
    name: 'strict',
    timeZone: 'UTC',
    windows: window,
    targets: { namespaces: ['strict'] },
    enforce: true,
  });
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('bad input', () => {
  it('a schedule with bad fields is refused with every field named, and nothing is stored', async () => {
    const res = await post('/v1/schedules', {
      name: 'broken',
      timeZone: 'Europe/Nowhere',
      cron: { hibernate: '0 25 * * *', resume: '0 7 * * *' },
      exceptions: [{ date: '2026-13-01', mode: 'skipHibernation' }],
      safety: { ignoreLongHibernation: { reason: ' ' } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'timeZone',
      'cron.hibernate',
      'exceptions[0].date',
      'safety.ignoreLongHibernation.reason',
    ]);
    expect((await bed.app.inject({ method: 'GET', url: '/v1/schedules/broken' })).statusCode).toBe(404);
    expect((await post('/v1/schedules', { name: 'dry', timeZone: 'UTC', windows: window })).statusCode).toBe(409);
    expect(
      (
        await bed.app.inject({
          method: 'PUT',
          url: '/v1/schedules/nope',
          payload: { timeZone: 'UTC', windows: window },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a schedule applied straight to Kubernetes with a bad zone is listed with its problems and does nothing', async () => {
    await bed.system.store.create('HibernationSchedule', HUB, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'HibernationSchedule',
      metadata: { name: 'gitops-typo', namespace: 'beekeeper' },
      spec: { timeZone: 'Europe/Berln', windows: window, targets: { namespaces: ['nowhere'] } },
    });
    await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'gitops-typo' },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    const list = await bed.app.inject({ method: 'GET', url: '/v1/schedules' });
    expect(list.statusCode).toBe(200);
    const typo = list.json().items.find((s: { name: string }) => s.name === 'gitops-typo');
    expect(typo).toMatchObject({
      desiredNow: { state: 'Unknown' },
      problems: [expect.objectContaining({ field: 'timeZone' })],
    });
    await bed.app.inject({ method: 'DELETE', url: '/v1/schedules/gitops-typo' });
  });

  it('an override needs who, why and, to keep awake, an end in the future', async () => {
    const url = `/v1/clusters/${HUB}/skip/skip-1/overrides`;
    const missing = await post(url, { type: 'keepAwake', by: 'ana', reason: 'demo' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual([expect.objectContaining({ field: 'until' })]);
    const past = await post(url, { type: 'keepAwake', until: '2026-01-01T00:00:00Z', by: 'ana', reason: 'demo' });
    expect(past.json().errors).toEqual([
      expect.objectContaining({ field: 'until', reason: expect.stringMatching(/in the past/) }),
    ]);
    expect(
      (await post(`/v1/clusters/${HUB}/skip/nope/overrides`, { type: 'skipNextHibernation', by: 'a', reason: 'b' }))
        .statusCode,
    ).toBe(404);
    expect((await bed.app.inject({ method: 'GET', url })).json().items).toEqual([]);
  });
});

describe('sweeps', () => {
  it('a dry-run schedule reports what it would do and changes nothing', async () => {
    const res = await post(`/v1/clusters/${HUB}/skip/skip-1/overrides`, {
      type: 'skipNextHibernation',
      by: 'bo',
      reason: 'overnight soak',
    });
    expect(res.statusCode, res.body).toBe(201);
    await bed.system.store.waitFor(
      'ClusterOverride',
      { hub: HUB, namespace: 'beekeeper', name: `${HUB}.skip.skip-1.skip-next-hibernation` },
      (o) => o,
      { timeoutMs: 10_000 },
    );

    bed.clock.set(Date.parse('2026-11-20T18:00:00.500Z'));
    const dry = (await waitJob(bed, `${HUB}.${jobIds.sweep('dry', Date.parse('2026-11-20T18:00:00Z'))}`))
      .result as SweepSummary;
    expect(dry).toMatchObject({
      dryRun: true,
      acted: [expect.objectContaining({ name: 'dry-1', action: 'hibernate' })],
    });
    expect(power('dry', 'dry-1')).toBe('Running');
    expect((await events(bed, 'dry', 'dry-1')).map((e) => e.reason)).not.toContain('ScheduledHibernate');
  });

  it('skip-next-hibernation keeps the cluster up for one night, then is consumed', async () => {
    const first = (await waitJob(bed, `${HUB}.${jobIds.sweep('skip', Date.parse('2026-11-20T18:00:00Z'))}`))
      .result as SweepSummary;
    expect(first.skipped).toEqual([
      expect.objectContaining({
        name: 'skip-1',
        reason: 'SkipNextHibernationOverride',
        message: expect.stringMatching(/bo/),
      }),
    ]);
    expect(power('skip', 'skip-1')).toBe('Running');
    const overrides = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/skip/skip-1/overrides` })).json()
      .items;
    expect(overrides).toEqual([expect.objectContaining({ type: 'skipNextHibernation', phase: 'Consumed' })]);

    bed.clock.set(Date.parse('2026-11-23T08:00:00.500Z'));
    await waitJob(bed, `${HUB}.${jobIds.sweep('skip', Date.parse('2026-11-23T08:00:00Z'))}`);
    bed.clock.set(Date.parse('2026-11-23T18:00:00.500Z'));
    const next = (await waitJob(bed, `${HUB}.${jobIds.sweep('skip', Date.parse('2026-11-23T18:00:00Z'))}`))
      .result as SweepSummary;
    expect(next.acted).toEqual([expect.objectContaining({ name: 'skip-1', action: 'hibernate' })]);
    expect(power('skip', 'skip-1')).toBe('Hibernating');
  });

  it('a skip-next-hibernation made again after one was used up starts afresh: Active, with no used-up edge left in its status', async () => {
    const name = `${HUB}.skip.skip-1.skip-next-hibernation`;
    const used = await bed.system.store.get<KubeObject & { status?: Record<string, unknown> }>('ClusterOverride', {
      hub: HUB,
      namespace: 'beekeeper',
      name,
    });
    expect(used?.status).toMatchObject({ phase: 'Consumed', consumedEdge: '2026-11-20T18:00:00.000Z' });
    const res = await post(`/v1/clusters/${HUB}/skip/skip-1/overrides`, {
      type: 'skipNextHibernation',
      by: 'bo',
      reason: 'another soak',
    });
    expect(res.statusCode, res.body).toBe(201);
    const again = await bed.system.store.get<
      KubeObject & { spec: { reason: string }; status?: Record<string, unknown> }
    >('ClusterOverride', { hub: HUB, namespace: 'beekeeper', name });
    expect(again?.spec.reason).toBe('another soak');
    expect(again?.status?.phase).toBe('Active');
    expect(again?.status).not.toHaveProperty('consumedEdge');
    await bed.app.inject({ method: 'DELETE', url: `/v1/clusters/${HUB}/skip/skip-1/overrides` });
  });

  it('enforce: true hibernates again a cluster someone resumed at night; without it, a resumed cluster stays up', async () => {
    await waitPower(bed, 'strict', 'strict-1', 'Hibernating');
    // First someone resumes skip-1, whose schedule acts at edges only (the 18:00 sweep hibernated it).
    await waitPower(bed, 'skip', 'skip-1', 'Hibernating');
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: 'skip', name: 'skip-1' },
      { spec: { powerState: 'Running' } },
    );
    const enforced = async () =>
      (await events(bed, 'strict', 'strict-1')).filter((e) => e.message?.includes('enforced')).length;
    const before = await enforced();
    // Follow the cluster's changes in order: first the manual resume, then Beekeeper putting it back.
    let resumed = false;
    const back = bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: 'strict', name: 'strict-1' },
      (o) => {
        const spec = (o as { spec?: { powerState?: string } } | undefined)?.spec?.powerState;
        if (spec === 'Running') resumed = true;
        return resumed && spec === 'Hibernating' ? true : undefined;
      },
      { timeoutMs: 20_000 },
    );
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: 'strict', name: 'strict-1' },
      { spec: { powerState: 'Running' } },
    );
    await expect(back).resolves.toBe(true);
    const [job] = await bed.system.queue.list({ type: 'schedule.reconcile-cluster', limit: 10 });
    expect(await bed.system.queue.waitUntilDone(job!.id, 10_000)).toMatchObject({
      state: 'completed',
      result: { outcome: 'acted', action: 'hibernate' },
    });
    expect(await enforced()).toBe(before + 1);
    // The timers saw skip-1's change before strict-1's, and enqueued nothing for it: it keeps running.
    const reconciles = await bed.system.queue.list({ type: 'schedule.reconcile-cluster', limit: 50 });
    expect(reconciles.filter((j) => j.target?.name === 'skip-1' || j.id.includes('skip-1'))).toEqual([]);
    expect(power('skip', 'skip-1')).toBe('Running');
    await waitPower(bed, 'skip', 'skip-1', 'Running');
  });
});
