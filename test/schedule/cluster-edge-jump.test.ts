// A timer on a cluster-specific edge that fires later than the schedule's catchUpDeadline (the process stalled, the
// clock jumped) replays nothing, as a start or the resync would not: a jump over a day of install grace periods
// used to enqueue a job per cluster, each writing the cluster, all landing on the next schedule edge's sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_EDGE_ANNOTATION } from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { jobIds } from '../../src/services/job-ids.js';
import { adoptCluster, createOfficeHours, cd, HUB, startBed, waitJob, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'jump';
const DAY = 24 * 3_600_000;
let bed: Bed;
const graceJobId = (name: string, installedMs: number) =>
  `${HUB}.${jobIds.lapse({ hub: HUB, namespace: NS, name }, installedMs + DAY)}`;

beforeAll(async () => {
  // Both grace periods end in the evening, where the schedule says Hibernating: a lapse where it says Running is no
  // edge at all (grace-lapse-running.test.ts), which would make the positive control below prove nothing.
  bed = await startBed(at('2026-11-22T20:00:00Z'), { roles: ['api', 'worker', 'scheduler'] });
  await adoptCluster(bed, NS, 'old'); // Sunday 20:00: its grace period ends Monday 20:00
  bed.clock.set(at('2026-11-23T19:30:00Z'));
  await adoptCluster(bed, NS, 'recent'); // Monday 19:30
  await createOfficeHours(bed, 'jump', NS, { timeZone: 'UTC' });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('a clock jump over cluster-specific edges', () => {
  it('applies the one within catchUpDeadline and enqueues nothing for the one beyond it', async () => {
    const installedAt: Record<string, number> = {};
    for (const name of ['old', 'recent']) {
      // Hive may report the power state before the status write that records installedTimestamp (the creation
      // time, for an adopted cluster): wait for it rather than read it once.
      installedAt[name] = await bed.system.store.waitFor<ClusterDeployment, number>(
        'ClusterDeployment',
        { hub: HUB, namespace: NS, name },
        (o) => (o?.status?.installedTimestamp ? Date.parse(o.status.installedTimestamp) : undefined),
        { timeoutMs: 10_000 },
      );
    }
    const installed = (name: string) => installedAt[name]!;
    expect(installed('recent') - installed('old')).toBeGreaterThan(6 * 3_600_000);
    const recentJob = graceJobId('recent', installed('recent'));
    const oldJob = graceJobId('old', installed('old'));
    bed.clock.set(at('2026-11-24T20:00:00Z'));
    // The positive control: the recent one's timer fired in the same jump, and its job recorded the edge.
    expect((await waitJob(bed, recentJob, 30_000)).state).toBe('completed');
    expect(cd(bed, NS, 'recent').metadata.annotations?.[CLUSTER_EDGE_ANNOTATION]).toBe(
      new Date(installed('recent') + DAY).toISOString(),
    );
    expect(await bed.system.queue.get(oldJob)).toBeUndefined();
    expect(cd(bed, NS, 'old').metadata.annotations?.[CLUSTER_EDGE_ANNOTATION]).toBeUndefined();
  }, 90_000);
});
