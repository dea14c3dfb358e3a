// Nightly hibernation end to end: the simulator, real Redis, the real worker and timers on a test clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import { adoptCluster, cd, events, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

// Sunday 2026-11-22 10:00 UTC; clusters are adopted then, and are past the 24h install grace by Monday noon.
const SUNDAY = Date.parse('2026-11-22T10:00:00Z');
const at = (iso: string) => Date.parse(iso);
const NS = 'team-a';
let bed: Bed;
let timers: ScheduleTimers[] = [];

const sweepId = (iso: string) => `${HUB}.${jobIds.sweep('office', at(iso))}`;
const power = (name: string, ns = NS) => cd(bed, ns, name).spec?.powerState ?? 'Running';

async function advanceTo(iso: string) {
  bed.clock.set(at(iso));
}

beforeAll(async () => {
  bed = await startBed(SUNDAY);
  await Promise.all([
    adoptCluster(bed, NS, 'alpha', { labels: { env: 'dev' } }),
    adoptCluster(bed, NS, 'bravo', { labels: { env: 'dev' } }),
    adoptCluster(bed, NS, 'optout', { labels: { env: 'dev', 'beekeeper.io/hibernation-opt-out': 'true' } }),
    adoptCluster(bed, NS, 'prod', { labels: { env: 'prod' } }),
    adoptCluster(bed, 'pool-a1', 'pool-a1', { labels: { env: 'dev' }, pool: 'ci' }),
    adoptCluster(bed, 'pool-b1', 'pool-b1', { labels: { env: 'dev' }, pool: 'ci' }),
  ]);
  // A claimed pool cluster is fair game: Hive's claim controller would set claimName; do as it does.
  await bed.system.store.mergePatch(
    'ClusterDeployment',
    { hub: HUB, namespace: 'pool-b1', name: 'pool-b1' },
    { spec: { clusterPoolRef: { claimName: 'ci-claim' } } },
  );
  await advanceTo('2026-11-23T12:00:00Z');
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'office',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS, 'pool-a1', 'pool-b1'], labelSelector: { matchLabels: { env: 'dev' } } },
      catchUpDeadline: '1h',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: 'beekeeper', name: 'office' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  timers = [startScheduleTimers(bed.timerDeps())];
}, 120_000);

afterAll(async () => {
  for (const t of timers) t.close();
  await bed?.close();
});

describe('a nightly schedule on the simulator', () => {
  it('previews the evening: which clusters hibernate and which are left alone, in Berlin time and UTC', async () => {
    const res = await bed.app.inject({ method: 'GET', url: '/v1/schedules/office/preview?days=1' });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    const evening = preview.edges[0];
    expect(evening).toMatchObject({
      at: '2026-11-23T17:00:00.000Z',
      local: '2026-11-23T18:00:00.000+01:00',
      action: 'hibernate',
    });
    expect(evening.clusters.map((c: { name: string }) => c.name).sort()).toEqual(['alpha', 'bravo', 'pool-b1']);
    expect(preview.excluded).toEqual([expect.objectContaining({ name: 'pool-a1', reason: 'UnclaimedPoolCluster' })]);
  });

  it('hibernates the right clusters at 18:00 Berlin: not unclaimed pool clusters, not opted-out ones', async () => {
    await advanceTo('2026-11-23T17:00:00.500Z');
    const job = await waitJob(bed, sweepId('2026-11-23T17:00:00Z'));
    expect(job.state).toBe('completed');
    const summary = job.result as SweepSummary;
    expect(summary.acted.map((c) => c.name).sort()).toEqual(['alpha', 'bravo', 'pool-b1']);
    expect(summary.skipped).toEqual([expect.objectContaining({ name: 'pool-a1', reason: 'UnclaimedPoolCluster' })]);
    expect(summary.failed).toEqual([]);
    expect([power('alpha'), power('bravo'), power('pool-b1', 'pool-b1')]).toEqual([
      'Hibernating',
      'Hibernating',
      'Hibernating',
    ]);
    expect([power('optout'), power('prod'), power('pool-a1', 'pool-a1')]).toEqual(['Running', 'Running', 'Running']);
    await waitPower(bed, NS, 'alpha', 'Hibernating');
    expect((await events(bed, NS, 'alpha')).map((e) => e.reason)).toContain('ScheduledHibernate');
    // Unclaimed pool clusters belong to Hive's pool controller: skipped in the summary, no Event on them.
    expect((await events(bed, 'pool-a1', 'pool-a1')).filter((e) => e.reason?.startsWith('Schedule'))).toEqual([]);
    const status = (await bed.app.inject({ method: 'GET', url: '/v1/schedules/office' })).json().status;
    expect(status.lastSweep).toMatchObject({
      edge: '2026-11-23T17:00:00.000Z',
      action: 'hibernate',
      acted: 3,
      skipped: 1,
      failed: 0,
    });
  });

  it('resumes them at 08:00 the next morning', async () => {
    await advanceTo('2026-11-24T07:00:00.500Z');
    const job = await waitJob(bed, sweepId('2026-11-24T07:00:00Z'));
    expect((job.result as SweepSummary).acted.map((c) => c.name).sort()).toEqual(['alpha', 'bravo', 'pool-b1']);
    expect([power('alpha'), power('bravo'), power('pool-b1', 'pool-b1')]).toEqual(['Running', 'Running', 'Running']);
    await waitPower(bed, NS, 'bravo', 'Running');
  });

  it('respects a keep-awake override, then hibernates the cluster when it lapses', async () => {
    const res = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/alpha/overrides`,
      payload: { type: 'keepAwake', until: '2026-11-24T19:00:00Z', by: 'ana', reason: 'demo for a customer tonight' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await bed.system.store.waitFor(
      'ClusterOverride',
      { hub: HUB, namespace: 'beekeeper', name: `${HUB}.${NS}.alpha.keep-awake` },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    const view = (
      await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/alpha/schedule?days=1` })
    ).json();
    expect(view.next[0]).toMatchObject({
      action: 'hibernate',
      at: '2026-11-24T17:00:00.000Z',
      skipCode: 'KeepAwakeOverride',
    });
    expect(view.next[1]).toMatchObject({ action: 'hibernate', at: '2026-11-24T19:00:00.000Z' });

    await advanceTo('2026-11-24T17:00:00.500Z');
    const summary = (await waitJob(bed, sweepId('2026-11-24T17:00:00Z'))).result as SweepSummary;
    expect(summary.skipped).toContainEqual(
      expect.objectContaining({ name: 'alpha', reason: 'KeepAwakeOverride', message: expect.stringMatching(/ana/) }),
    );
    // The skip is recorded on the cluster too, where `kubectl describe cd` shows it.
    expect(
      (await events(bed, NS, 'alpha')).filter((e) => e.reason === 'ScheduleSkipped').map((e) => e.message),
    ).toEqual([expect.stringMatching(/hibernate .* skipped \(KeepAwakeOverride\)/)]);
    expect(power('alpha')).toBe('Running');
    expect(power('bravo')).toBe('Hibernating');

    await advanceTo('2026-11-24T19:00:00.500Z');
    await waitPower(bed, NS, 'alpha', 'Hibernating');
    const overrides = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/alpha/overrides` })).json()
      .items;
    expect(overrides).toEqual([expect.objectContaining({ type: 'keepAwake', phase: 'Expired', by: 'ana' })]);
  });

  it('catches up after the scheduler was down, applying the state the schedule says now', async () => {
    for (const t of timers) t.close();
    // Down across Wednesday's 08:00 resume; back 30 minutes later, within the 1h deadline.
    await advanceTo('2026-11-25T07:30:00Z');
    expect(power('bravo')).toBe('Hibernating');
    timers = [startScheduleTimers(bed.timerDeps())];
    const job = await waitJob(bed, sweepId('2026-11-25T07:00:00Z'));
    expect(job.result).toMatchObject({ mode: 'catch-up', edge: { action: 'resume' } });
    expect(power('bravo')).toBe('Running');
  });

  it('never replays an edge missed by more than the deadline', async () => {
    for (const t of timers) t.close();
    await advanceTo('2026-11-25T19:30:00Z'); // 18:00 Berlin hibernate missed by 2.5h
    timers = [startScheduleTimers(bed.timerDeps())];
    const missed = await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'office' },
      (o) =>
        (o as { status?: { lastMissed?: { edge: string } } } | undefined)?.status?.lastMissed?.edge ===
        '2026-11-25T17:00:00.000Z'
          ? o
          : undefined,
      { timeoutMs: 10_000 },
    );
    expect(missed).toBeDefined();
    expect(await bed.system.queue.get(sweepId('2026-11-25T17:00:00Z'))).toBeUndefined();
    expect(power('bravo')).toBe('Running');
  });

  it('acts once with three scheduler instances running (separate Beekeeper systems sharing Redis)', async () => {
    for (const t of timers) t.close();
    // Someone hibernated bravo by hand overnight; Thursday's 08:00 resume brings it back, exactly once.
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'bravo' },
      { spec: { powerState: 'Hibernating' } },
    );
    await waitPower(bed, NS, 'bravo', 'Hibernating');
    const resumes = async () => (await events(bed, NS, 'bravo')).filter((e) => e.reason === 'ScheduledResume').length;
    const before = await resumes();
    timers = [];
    // Three instances with the scheduler role, as three scheduler processes would run: each has its own informer
    // cache, Redis connections and timers; only Redis and the hub are shared. The bed's own system only works.
    const schedulers = await Promise.all([1, 2, 3].map(() => bed.startInstance(['scheduler'])));
    for (const s of schedulers)
      await s.store.waitFor('HibernationSchedule', { hub: HUB, namespace: 'beekeeper', name: 'office' }, (o) => o, {
        timeoutMs: 10_000,
      });
    await advanceTo('2026-11-26T07:00:00.500Z');
    const job = await waitJob(bed, sweepId('2026-11-26T07:00:00Z'));
    expect(job.state).toBe('completed');
    const summary = job.result as SweepSummary;
    expect(summary.acted.map((c) => c.name)).toEqual(['bravo']);
    expect(summary.skipped.filter((s) => s.name === 'alpha')).toEqual([
      expect.objectContaining({ reason: 'AlreadyInState' }),
    ]);
    // Every sweep for this edge, whatever its id: exactly one was enqueued between the three schedulers.
    const sweeps = (await bed.system.queue.list({ type: 'schedule.sweep', limit: 100 })).filter((j) =>
      j.id.includes(String(at('2026-11-26T07:00:00Z'))),
    );
    expect(sweeps).toHaveLength(1);
    expect(await resumes()).toBe(before + 1);
    await waitPower(bed, NS, 'bravo', 'Running');
  });
});
