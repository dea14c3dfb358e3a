// Jobs that finish on another worker (after a crash, or handed back at shutdown) report what Beekeeper did: the
// change their first run made is still "changed" / "acted", not "skipped" (or "none") because the cluster is
// "already" there, and each action has its one Event (issue 8, "Every change leaves a trace").
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import type { JobView } from '../../src/services/ports.js';
import type { SweepSummary } from '../../src/services/schedules/sweep.js';
import type { System } from '../../src/system.js';
import { adoptCluster, createOfficeHours, events, HUB, startBed, waitJob, waitPower, type Bed } from './support.js';
import { countHibernations, expectSweptOnce } from './swept-once.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

// Saturday noon in Berlin: outside the weekday window, so the schedule says Hibernating.
const SATURDAY = Date.parse('2026-11-21T11:00:00Z');
const NS = 'team-crash';
const SWEPT = ['c1', 'c2', 'c3', 'c4'];
const STRICT_NS = 'team-strict';
const fixture = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));
let bed: Bed;
const processes: ChildProcess[] = [];
const instances: System[] = [];
let timers: ScheduleTimers | undefined;

/** A worker process on the bed's Redis and hub; resolves once it takes jobs. */
function startWorkerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, ...bed.env, CLOCK_OFFSET_MS: String(bed.clock.now() - Date.now()) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  processes.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
  });
}

const specIs = (name: string, state: string, namespace = NS) =>
  bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: HUB, namespace, name },
    (o) => (o?.spec?.powerState === state ? true : undefined),
    { timeoutMs: 30_000 },
  );

beforeAll(async () => {
  // No worker in this process: the test decides which worker carries out each job. Short locks, so a killed
  // worker's jobs are found stalled within seconds; no grace at shutdown, so a waiting job is handed back at once.
  bed = await startBed(SATURDAY, {
    roles: ['api'],
    env: { BEEKEEPER_JOB_LOCK_MS: '2000', BEEKEEPER_JOB_STALLED_INTERVAL_MS: '1000', BEEKEEPER_SHUTDOWN_GRACE_MS: '0' },
  });
  for (const name of SWEPT) await adoptCluster(bed, NS, name, { labels: { swept: 'yes' } });
  await adoptCluster(bed, NS, 'solo');
  await createOfficeHours(bed, 'crashy', NS, {
    targets: { namespaces: [NS], labelSelector: { matchLabels: { swept: 'yes' } } },
    firstDay: true,
  });
  await adoptCluster(bed, STRICT_NS, 'e1');
  await createOfficeHours(bed, 'strict', STRICT_NS, { enforce: true, firstDay: true });
}, 120_000);

afterAll(async () => {
  timers?.close();
  for (const p of processes) if (p.exitCode === null) p.kill('SIGKILL');
  for (const i of instances) await i.close();
  bed?.sim.hubs[0]!.server.faults.clear();
  await bed?.close();
});

describe('jobs finished by another worker', () => {
  it('a hibernate handed back at shutdown and finished elsewhere reports changed: true, with one HibernateRequested Event', async () => {
    const first = await bed.startInstance(['worker']);
    // Hive's status writes fail, so the job has patched spec.powerState and waits for Hive when its worker stops.
    bed.sim.hubs[0]!.server.faults.set({
      errors: [{ verb: 'update', resource: 'clusterdeployments', rate: 1, code: 503 }],
    });
    const res = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${NS}/solo/hibernate` });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ job: JobView }>().job.id;
    await specIs('solo', 'Hibernating');
    await first.close();
    expect(await bed.system.queue.get(id)).toMatchObject({ state: 'waiting' });

    bed.sim.hubs[0]!.server.faults.clear();
    instances.push(await bed.startInstance(['worker']));
    const done = await waitJob(bed, id);
    expect(done.state).toBe('completed');
    expect(done.result).toEqual({ powerState: 'Hibernating', changed: true });
    const reasons = (await events(bed, NS, 'solo')).map((e) => e.reason);
    expect(reasons.filter((r) => r === 'HibernateRequested')).toHaveLength(1);
    expect(reasons.filter((r) => r === 'Hibernated')).toHaveLength(1);
    expect(reasons).not.toContain('HibernateFailed');
  }, 60_000);

  it('a sweep whose worker is killed after patching counts every cluster as acted, patched once, each with one Event', async () => {
    for (const i of instances.splice(0)) await i.close();
    // Each change of spec.powerState to Hibernating, from the informer's events: one PATCH each, not two.
    const { counts: hibernations, stop } = countHibernations(bed, NS, SWEPT);
    const doomed = await startWorkerProcess();
    // Event writes hang, so the sweep is killed after its patches and before it ends.
    bed.sim.hubs[0]!.server.faults.set({ latency: [{ verb: 'create', resource: 'events', ms: 8000 }] });
    const run = await bed.app.inject({ method: 'POST', url: '/v1/schedules/crashy/run' });
    expect(run.statusCode, run.body).toBe(202);
    const sweepId = run.json<{ job: JobView }>().job.id;
    await Promise.all(SWEPT.map((name) => specIs(name, 'Hibernating')));
    // Patched, and still running (its Events hang): the kill lands between the patches and the job's end.
    expect((await bed.system.queue.get(sweepId))?.state).toBe('active');
    const died = new Promise((r) => doomed.once('exit', r));
    doomed.kill('SIGKILL');
    await died;
    bed.sim.hubs[0]!.server.faults.clear();

    instances.push(await bed.startInstance(['worker']));
    const done = await waitJob(bed, sweepId, 60_000);
    stop();
    expect(done.state).toBe('completed');
    const summary = done.result as SweepSummary;
    expect(summary.counts).toEqual({ acted: SWEPT.length, skipped: 0, failed: 0 });
    expect(summary.acted.map((c) => c.name).sort()).toEqual(SWEPT);
    await expectSweptOnce(bed, NS, SWEPT, hibernations);
  }, 90_000);

  it("an enforce job whose worker is killed after patching reports acted, not 'already Hibernating', with one Event", async () => {
    for (const i of instances.splice(0)) await i.close();
    const doomed = await startWorkerProcess();
    bed.sim.hubs[0]!.server.faults.set({ latency: [{ verb: 'create', resource: 'events', ms: 8000 }] });
    // The timers find e1 running on a Saturday and enqueue its enforcement, which the doomed worker takes.
    timers = startScheduleTimers(bed.timerDeps());
    await specIs('e1', 'Hibernating', STRICT_NS);
    const [job] = (await bed.system.queue.list({ type: 'schedule.reconcile-cluster', limit: 10 })).filter(
      (j) => j.target?.name === 'e1',
    );
    expect(job?.state).toBe('active');
    const died = new Promise((r) => doomed.once('exit', r));
    doomed.kill('SIGKILL');
    await died;
    bed.sim.hubs[0]!.server.faults.clear();

    instances.push(await bed.startInstance(['worker']));
    const done = await waitJob(bed, job!.id, 60_000);
    expect(done).toMatchObject({ state: 'completed', result: { outcome: 'acted', action: 'hibernate' } });
    await waitPower(bed, STRICT_NS, 'e1', 'Hibernating');
    const reasons = (await events(bed, STRICT_NS, 'e1')).map((e) => e.reason);
    expect(reasons.filter((r) => r === 'ScheduledHibernate')).toHaveLength(1);
    expect(reasons).not.toContain('ScheduleSkipped');
  }, 90_000);
});
