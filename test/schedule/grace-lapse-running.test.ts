// The install grace period ending is an edge only where the schedule says Hibernating at that instant: the cluster
// then goes to sleep. Where the schedule says Running (office hours), the lapse changes nothing, and it used to cost
// a reconcile job and a PATCH recording it on every such cluster. Two clusters adopted together end their grace
// periods at the same instant, one under an office-hours schedule in UTC (midday: Running), the other under one in
// Tokyo (evening: Hibernating), so the second one's job is the sign that the timers have fired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_EDGE_ANNOTATION } from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { jobIds } from '../../src/services/job-ids.js';
import { adoptCluster, cd, createOfficeHours, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const DAY = 24 * 3_600_000;
const graceJobId = (namespace: string, installedMs: number) =>
  `${HUB}.${jobIds.lapse({ hub: HUB, namespace, name: 'fresh' }, installedMs + DAY)}`;
let bed: Bed;

beforeAll(async () => {
  // Tuesday 11:40 UTC; the nearest schedule edges to Wednesday 11:40 UTC are hours away (08:00 and 18:00 UTC,
  // 18:00 Tokyo = 09:00 UTC), so no sweep touches either cluster around the lapse.
  bed = await startBed(at('2026-11-24T11:40:00Z'), { roles: ['api', 'worker', 'scheduler'] });
  await adoptCluster(bed, 'grace-day', 'fresh');
  await adoptCluster(bed, 'grace-night', 'fresh');
  await createOfficeHours(bed, 'utc-office', 'grace-day', { timeZone: 'UTC' });
  await createOfficeHours(bed, 'tokyo-office', 'grace-night', { timeZone: 'Asia/Tokyo' });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

const installedAt = (namespace: string) =>
  // Hive may report the power state before the status write that records installedTimestamp: wait for it.
  bed.system.store.waitFor<ClusterDeployment, number>(
    'ClusterDeployment',
    { hub: HUB, namespace, name: 'fresh' },
    (o) => (o?.status?.installedTimestamp ? Date.parse(o.status.installedTimestamp) : undefined),
    { timeoutMs: 10_000 },
  );

describe('the install grace period ending', () => {
  it('where the schedule says Running costs no job and no write; where it says Hibernating, the cluster sleeps', async () => {
    const dayInstalled = await installedAt('grace-day');
    const nightInstalled = await installedAt('grace-night');
    const before = cd(bed, 'grace-day', 'fresh').metadata.resourceVersion;

    bed.clock.set(Math.max(dayInstalled, nightInstalled) + DAY + 30_000);

    // The positive control: the Tokyo cluster's lapse is an edge, its job hibernates it and records the edge.
    expect((await waitJob(bed, graceJobId('grace-night', nightInstalled))).state).toBe('completed');
    await waitPower(bed, 'grace-night', 'fresh', 'Hibernating');
    expect(cd(bed, 'grace-night', 'fresh').metadata.annotations?.[CLUSTER_EDGE_ANNOTATION]).toBe(
      new Date(nightInstalled + DAY).toISOString(),
    );

    // The UTC cluster: no job was enqueued (both timers fired in the same jump), and the cluster was not written.
    expect(await bed.system.queue.get(graceJobId('grace-day', dayInstalled))).toBeUndefined();
    const day = cd(bed, 'grace-day', 'fresh');
    expect(day.metadata.annotations?.[CLUSTER_EDGE_ANNOTATION]).toBeUndefined();
    expect(day.metadata.resourceVersion).toBe(before);
    expect(day.status?.powerState).toBe('Running');

    // Nothing recorded and nothing owed: the resync does not replay it either.
    expect((await bed.system.resync!.runOnce())?.repairs).toEqual({});
    expect(await bed.system.queue.get(graceJobId('grace-day', dayInstalled))).toBeUndefined();
  }, 90_000);
});
