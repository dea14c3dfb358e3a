// Beekeeper's job queue against raw BullMQ (issue 14, benchmark 4; bench/waiting-jobs.ts covers jobs that wait on
// Hive, bench/sweep-fanout.ts a sweep's child jobs). Subject: the production queue and worker pool
// (src/jobs/job-queue.ts, src/jobs/worker.ts: payload checks, job events, steps, per-hub queues and slots) with one
// no-op job type registered for the bench; baseline: a bare BullMQ Queue and Worker on the same Redis with the same
// concurrency (Beekeeper's default per-hub concurrency, 20). Alternated, 3 rounds each, medians:
//  - enqueue-to-start latency on an idle queue: one job at a time, each waited for before the next (p50);
//  - throughput: N jobs enqueued at once, from the first enqueue to the last job done (jobs/s).
// Run: npx tsx --expose-gc bench/jobs.ts [jobs]
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createJobQueue } from '../src/jobs/job-queue.js';
import { startWorkers } from '../src/jobs/worker.js';
import { createLogger } from '../src/logger.js';
import { closeRedis, createRedis } from '../src/redis/connect.js';
import type { JobSpec } from '../src/services/ports.js';
import { deleteKeys, median, REDIS_URL, report, row, timed } from './support.js';

const JOBS = Number(process.argv[2] ?? 2000);
const SINGLES = 50;
const ROUNDS = 3;
const HUB = 'bench';
const TYPE = 'bench.noop';

interface Harness {
  /** Enqueues one job; resolves when it is accepted, with a promise of its start. */
  add(i: number): Promise<void>;
  /** Resolves when `count` jobs have run since the last reset. */
  reset(count: number): Promise<void>;
  startLatencies: number[];
  close(): Promise<void>;
}

function counter() {
  let done = 0;
  let want = 0;
  let fire: () => void = () => undefined;
  return {
    tick() {
      if (++done === want) fire();
    },
    reset(count: number) {
      done = 0;
      want = count;
      return new Promise<void>((r) => (fire = r));
    },
  };
}

async function beekeeper(): Promise<Harness> {
  const prefix = `{bk-bench-${randomUUID().slice(0, 8)}}`;
  const config = loadConfig({ REDIS_URL, BEEKEEPER_REDIS_PREFIX: prefix });
  const hub = { name: HUB, ...config.hubDefaults };
  const log = createLogger({ level: 'silent' });
  const producer = createRedis(config.redis, 'producer');
  const listener = createRedis(config.redis, 'worker');
  const catalog = { [TYPE]: { class: 'interactive' as const, attempts: 1 } };
  const queue = createJobQueue({
    producer,
    listener,
    prefix,
    hubs: [HUB],
    defaultHub: HUB,
    jobs: config.jobs,
    catalog,
    log,
  });
  const c = counter();
  const startLatencies: number[] = [];
  const pool = await startWorkers({
    connection: listener,
    prefix,
    hubs: [hub],
    handlers: {
      [TYPE]: async (payload) => {
        startLatencies.push(performance.now() - (payload.t as number));
        c.tick();
        return undefined;
      },
    },
    jobs: config.jobs,
    catalog,
    clock: systemClock,
    log,
  });
  return {
    async add(i) {
      // A bare type string is not a JobSpec outside services/job-definition.ts; the bench's type has no schema.
      await queue.enqueue({ type: TYPE, payload: { i, t: performance.now() } } as unknown as JobSpec, { hub: HUB });
    },
    reset: (n) => c.reset(n),
    startLatencies,
    async close() {
      await pool.close();
      await queue.close();
      await Promise.all([closeRedis(producer), closeRedis(listener)]);
      await deleteKeys(prefix);
    },
  };
}

async function bare(concurrency: number): Promise<Harness> {
  const prefix = `{bk-bench-bare-${randomUUID().slice(0, 8)}}`;
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const workerConnection = connection.duplicate();
  const queue = new Queue('noop', { connection, prefix });
  const c = counter();
  const startLatencies: number[] = [];
  const worker = new Worker(
    'noop',
    async (job) => {
      startLatencies.push(performance.now() - (job.data as { t: number }).t);
      c.tick();
    },
    { connection: workerConnection, prefix, concurrency },
  );
  await worker.waitUntilReady();
  return {
    async add(i) {
      await queue.add('noop', { i, t: performance.now() }, { removeOnComplete: 1000, removeOnFail: 5000 });
    },
    reset: (n) => c.reset(n),
    startLatencies,
    async close() {
      await worker.close();
      await queue.close();
      connection.disconnect();
      workerConnection.disconnect();
      await deleteKeys(prefix);
    },
  };
}

const concurrency = loadConfig({ REDIS_URL }).hubDefaults.concurrency;
const subjects = { beekeeper: await beekeeper(), bare: await bare(concurrency) };
const singles: Record<string, number[]> = { beekeeper: [], bare: [] };
const rates: Record<string, number[]> = { beekeeper: [], bare: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, h] of Object.entries(subjects)) {
      h.startLatencies.length = 0;
      for (let i = 0; i < SINGLES; i++) {
        const done = h.reset(1);
        await h.add(i);
        await done;
      }
      singles[name]!.push(median(h.startLatencies.slice(r === 0 ? 5 : 0)));
      const done = h.reset(JOBS);
      const [ms] = await timed(async () => {
        await Promise.all(Array.from({ length: JOBS }, (_, i) => h.add(i)));
        await done;
      });
      rates[name]!.push(JOBS / (ms / 1000));
    }
  }
} finally {
  await Promise.all(Object.values(subjects).map((h) => h.close()));
}
console.log(
  `jobs: idle enqueue->start p50 per round (ms) beekeeper ${singles.beekeeper!.map((x) => x.toFixed(1)).join(' ')}, bare ${singles.bare!.map((x) => x.toFixed(1)).join(' ')}; ` +
    `${JOBS} jobs/s beekeeper ${rates.beekeeper!.map((x) => x.toFixed(0)).join(' ')}, bare ${rates.bare!.map((x) => x.toFixed(0)).join(' ')}`,
);
report([
  row(
    'jobs',
    'enqueue -> start, idle queue (p50)',
    median(singles.beekeeper!),
    median(singles.bare!),
    'ms',
    'vs bare BullMQ, same Redis',
  ),
  row(
    'jobs',
    `${JOBS} no-op jobs at concurrency ${concurrency}`,
    median(rates.beekeeper!),
    median(rates.bare!),
    'jobs/s',
    'vs bare BullMQ; ratio = rate / baseline rate',
  ),
]);
