// Schedule sweep machinery with the hub's rate limit out of the way (5,000 QPS): a manual run of a
// HibernationSchedule over N fake clusters (Hive switches their power at once), alternating hibernate and resume
// rounds; clusters acted per second from the run request to the sweep's end. Before issue 14 the sweep fanned out
// one `schedule.apply` child job per cluster (the log line then says where a child's time went); since, it acts
// through a bounded pool per hub inside the one job (`sweepConcurrency`). Baseline, alternated with the rounds: N
// no-op BullMQ jobs added one by one to a bare queue and run by a bare worker at the sweep's per-hub concurrency on
// the same Redis: the queue's own floor. bench/sweep-vs-loops.ts measures the sweep with its default settings.
// Run: npx tsx --expose-gc bench/sweep-fanout.ts [clusters]
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobView } from '../src/services/ports.js';
import type { SweepSummary } from '../src/services/schedules/sweep.js';
import {
  adoptMany,
  deleteKeys,
  HUB,
  hubLimits,
  median,
  REDIS_URL,
  report,
  row,
  startBed,
  timed,
  until,
} from './support.js';

const CLUSTERS = Number(process.argv[2] ?? process.env.BENCH_SWEEP_CLUSTERS ?? 300);
const ROUNDS = 3;
const NS = 'bench-sweep';
// Saturday noon in Berlin (outside the windows: hibernate), then Monday noon (resume), Monday night (hibernate)...
const EDGES = [
  '2026-11-21T12:00:00Z',
  '2026-11-23T11:00:00Z',
  '2026-11-23T20:00:00Z',
  '2026-11-24T11:00:00Z',
  '2026-11-24T20:00:00Z',
].map(Date.parse);

/** N no-op jobs through a bare BullMQ queue and worker; returns the elapsed ms. */
async function bareQueueRun(concurrency: number): Promise<number> {
  const prefix = `{bk-bench-bare-${randomUUID().slice(0, 8)}}`;
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('noop', { connection, prefix });
  let done = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  const workerConnection = connection.duplicate();
  const worker = new Worker('noop', async () => undefined, {
    connection: workerConnection,
    prefix,
    concurrency,
    autorun: false,
  });
  worker.on('completed', () => ++done === CLUSTERS && finished());
  await worker.waitUntilReady();
  try {
    const [ms] = await timed(async () => {
      void worker.run();
      await Promise.all(Array.from({ length: CLUSTERS }, (_, i) => queue.add('noop', { i })));
      await allDone;
    });
    return ms;
  } finally {
    await worker.close();
    await queue.close();
    // BullMQ leaves connections it was given open.
    connection.disconnect();
    workerConnection.disconnect();
    await deleteKeys(prefix);
  }
}

// The simulator runs in its own process, as a hub would: its CPU is not Beekeeper's.
const bed = await startBed({ startMs: EDGES[0]! - 60_000, simProcess: true });
const concurrency = hubLimits(bed.config.hubs[0]!).sweepConcurrency;
const sweep: number[] = [];
const bare: number[] = [];
const childRun: number[] = [];
const childWait: number[] = [];
try {
  const { app, queue, store } = bed.system;
  await adoptMany(bed.client, NS, CLUSTERS, { fake: true });
  const cds = () =>
    store.cachedList<{ metadata: { name: string }; status?: { powerState?: string } }>('ClusterDeployment', {
      hub: HUB,
      namespace: NS,
    });
  const all = (state: string) => cds().length === CLUSTERS && cds().every((c) => c.object.status?.powerState === state);
  await until('every cluster Running', () => all('Running'), 120_000);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'bench',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      safety: { allowHibernationInFirstDay: { reason: 'benchmark clusters were adopted minutes ago' } },
    },
  });
  if (created.statusCode !== 201) throw new Error(`schedule: ${created.statusCode} ${created.body}`);
  await store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: bed.config.stateNamespace, name: 'bench' },
    (o) => o,
    { timeoutMs: 10_000 },
  );

  for (let round = 0; round < ROUNDS; round++) {
    await bed.setTime(EDGES[round]!);
    const target = round % 2 === 0 ? 'Hibernating' : 'Running';
    const startedAt = Date.now();
    const [ms, summary] = await timed(async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/schedules/bench/run' });
      if (res.statusCode !== 202) throw new Error(`run: ${res.statusCode} ${res.body}`);
      const done = await queue.waitUntilDone(res.json<{ job: JobView }>().job.id, 120_000);
      if (done.state !== 'completed') throw new Error(`sweep ${done.state}: ${JSON.stringify(done.error)}`);
      return done.result as SweepSummary;
    });
    if (summary.counts.acted !== CLUSTERS)
      throw new Error(
        `round ${round}: acted on ${summary.counts.acted} of ${CLUSTERS}: ${JSON.stringify(summary.skippedReasons)} ${JSON.stringify(summary.failed.slice(0, 2))}`,
      );
    sweep.push(ms);
    // Where a child's time goes: waiting for a worker slot vs running (BullMQ's own timestamps, ms resolution).
    const kids = (
      await queue.list({ type: 'schedule.apply', state: 'completed', limit: CLUSTERS * (round + 1) })
    ).filter((j) => j.finishedAt && Date.parse(j.createdAt) >= startedAt - 5);
    const ms2 = (a?: string, b?: string) => Date.parse(b!) - Date.parse(a!);
    childRun.push(median(kids.map((j) => ms2(j.startedAt, j.finishedAt))));
    childWait.push(median(kids.map((j) => ms2(j.createdAt, j.startedAt))));
    await until(`every cluster ${target}`, () => all(target), 120_000);
    bare.push(await bareQueueRun(concurrency));
  }
} finally {
  await bed.close();
}
const rate = (ms: number) => CLUSTERS / (ms / 1000);
console.log(
  `sweep fan-out: ${CLUSTERS} clusters, per-hub concurrency ${concurrency}, rounds (ms) ${sweep.map((x) => x.toFixed(0)).join(' ')}; bare ${bare.map((x) => x.toFixed(0)).join(' ')}; ` +
    (childRun.some((x) => !Number.isNaN(x))
      ? `per child (median of round medians) ${median(childRun).toFixed(0)} ms running after ${median(childWait).toFixed(0)} ms queued`
      : 'no child jobs (the sweep acts inside its job)'),
);
report([
  // Ratio of times (same job count), so above 1 means the sweep is slower than the bare queue.
  row(
    'sweep-fanout',
    `sweep of ${CLUSTERS} clusters, limits raised: clusters/s`,
    rate(median(sweep)),
    rate(median(bare)),
    'per s',
    'vs no-op BullMQ jobs/s; ratio = rate / baseline rate',
  ),
]);
