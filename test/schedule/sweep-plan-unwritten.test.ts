// A sweep starts patching as soon as its plan is made, while the plan is still being written to its job (sweep.ts).
// A worker killed in that window leaves patched clusters and no plan in Redis: the next run plans again, counts
// the clusters carrying the job's marker as acted, and patches the rest: every cluster patched once, one Event each.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { queueName } from '../../src/jobs/queue-names.js';
import type { JobView } from '../../src/services/ports.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import type { System } from '../../src/system.js';
import { adoptCluster, createOfficeHours, HUB, startBed, waitJob, type Bed } from './support.js';
import { countHibernations, expectSweptOnce } from './swept-once.js';

// Saturday noon in Berlin: outside the weekday window, so the schedule says Hibernating.
const SATURDAY = Date.parse('2026-11-21T11:00:00Z');
const NS = 'team-unwritten';
const SWEPT = ['u1', 'u2', 'u3', 'u4'];
const fixture = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));
let bed: Bed;
let child: ChildProcess | undefined;
let other: System | undefined;

beforeAll(async () => {
  // No worker in this process; short locks, so the killed worker's job is found stalled within seconds.
  bed = await startBed(SATURDAY, {
    roles: ['api'],
    env: { BEEKEEPER_JOB_LOCK_MS: '2000', BEEKEEPER_JOB_STALLED_INTERVAL_MS: '1000', BEEKEEPER_SHUTDOWN_GRACE_MS: '0' },
  });
  for (const name of SWEPT) await adoptCluster(bed, NS, name);
  await createOfficeHours(bed, 'unwritten', NS, { firstDay: true });
}, 120_000);

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await other?.close();
  bed?.sim.hubs[0]!.server.faults.clear();
  await bed?.close();
});

/** The job's data as if the worker had died before its plan reached Redis: no kept plan. */
async function forgetPlan(id: string): Promise<void> {
  const connection = new Redis(bed.env.REDIS_URL!, { maxRetriesPerRequest: null });
  try {
    for (const cls of ['interactive', 'background'] as const) {
      const queue = new Queue(queueName(HUB, cls), { connection, prefix: bed.env.BEEKEEPER_REDIS_PREFIX });
      const job = await Job.fromId(queue, id);
      await queue.close();
      if (!job) continue;
      const { memo, ...data } = job.data as { memo?: Record<string, unknown> };
      expect(memo?.plan, 'the plan was kept before the kill').toBeDefined();
      await job.updateData(data);
      return;
    }
    throw new Error(`job ${id} not found`);
  } finally {
    connection.disconnect();
  }
}

describe('a sweep killed after patching, before its plan is in Redis', () => {
  it('patches every cluster once and leaves one Event on each', async () => {
    const { counts: hibernations, stop } = countHibernations(bed, NS, SWEPT);
    child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, ...bed.env, CLOCK_OFFSET_MS: String(bed.clock.now() - Date.now()) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child!.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
      child!.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    });
    // Event writes hang, so the worker is still in the job when it is killed after its patches.
    bed.sim.hubs[0]!.server.faults.set({ latency: [{ verb: 'create', resource: 'events', ms: 8000 }] });
    const run = await bed.app.inject({ method: 'POST', url: '/v1/schedules/unwritten/run' });
    expect(run.statusCode, run.body).toBe(202);
    const sweepId = run.json<{ job: JobView }>().job.id;
    await Promise.all(
      SWEPT.map((name) =>
        bed.system.store.waitFor<ClusterDeployment, true>(
          'ClusterDeployment',
          { hub: HUB, namespace: NS, name },
          (o) => (o?.spec?.powerState === 'Hibernating' ? true : undefined),
          { timeoutMs: 30_000 },
        ),
      ),
    );
    const died = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await died;
    await forgetPlan(sweepId);
    bed.sim.hubs[0]!.server.faults.clear();

    other = await bed.startInstance(['worker']);
    const done = await waitJob(bed, sweepId, 60_000);
    stop();
    expect(done.state).toBe('completed');
    const summary = done.result as SweepSummary;
    expect(summary.counts).toEqual({ acted: SWEPT.length, skipped: 0, failed: 0 });
    await expectSweptOnce(bed, NS, SWEPT, hibernations);
  }, 90_000);
});
