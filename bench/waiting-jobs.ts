// What a job waiting on Hive costs (issue 14, benchmark 4: 1,000 in the full set). N hibernate jobs run at once in
// one worker; Hive (the simulator, on a test clock, in a child process so the heap, RSS and CPU measured are
// Beekeeper's alone) holds every cluster in `Stopping` until the clock jumps, so each job sits in `store.waitFor` (an
// informer event wakes it, nothing polls). Measured: heap and RSS per waiting job (while all wait minus before they
// were enqueued, after full GCs and one warm-up job); the process's CPU (process.cpuUsage, user + system) over
// CPU_WINDOW_MS of the wait, as ms of CPU per second; the time from Hive finishing to every job completed.
// Baseline: the same number of plain promises each waiting for its cluster's event on an EventEmitter, measured the
// same way, 5 runs around the subject's one (median). The ratio says how much more a real waiting job costs than
// the cheapest possible wait. Also printed, not a row: the same Beekeeper's CPU idle, before the jobs.
// Run: npx tsx --expose-gc bench/waiting-jobs.ts [jobs]
import { EventEmitter } from 'node:events';
import type { JobView, KubeObject } from '../src/services/ports.js';
import { adoptMany, HUB, median, report, row, settledHeap, startBed, timed, until } from './support.js';
import { mapLimit } from '../src/map-limit.js';

const JOBS = Number(process.argv[2] ?? process.env.BENCH_WAIT_JOBS ?? 300);
const NS = 'bench-wait';
const STOPPING_MS = 10 * 60_000;
const CPU_WINDOW_MS = Number(process.env.CPU_WINDOW_MS ?? 3000);

/**
 * Heap and RSS after full collections, with pauses between them: V8 hands freed pages back to the OS lazily, and
 * an RSS read right after one collection can count pages that are about to go.
 */
async function settledMemory(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i++) {
    settledHeap();
    await new Promise((r) => setTimeout(r, 300));
  }
  return settledHeap();
}

/** CPU this process spends over `ms` of waiting, in ms of CPU per second. */
async function cpuOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  const start = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / ((performance.now() - start) / 1000);
}

interface BaselineRun {
  perWaitBytes: number;
  perWaitRss: number;
  cpuMsPerS: number;
  wakeMs: number;
}

/** One baseline run: JOBS promises wait on an emitter, then one event per cluster wakes them. */
async function baselineRun(): Promise<BaselineRun> {
  const { heap: before, rss: rssBefore } = await settledMemory();
  const hive = new EventEmitter();
  hive.setMaxListeners(0);
  const waits = Array.from(
    { length: JOBS },
    (_, i) =>
      new Promise<string>((resolve) => {
        const name = `cd-${i}`;
        const onChange = (obj: { name: string; powerState: string }) => {
          if (obj.name !== name || obj.powerState !== 'Hibernating') return;
          hive.off('change', onChange);
          resolve(obj.powerState);
        };
        hive.on('change', onChange);
      }),
  );
  const { heap: waiting, rss: rssWaiting } = await settledMemory();
  const cpuMsPerS = await cpuOver(CPU_WINDOW_MS);
  const [wakeMs] = await timed(async () => {
    // Like an informer, one event per object, delivered from the event loop.
    for (let i = 0; i < JOBS; i++)
      setImmediate(() => hive.emit('change', { name: `cd-${i}`, powerState: 'Hibernating' }));
    await Promise.all(waits);
  });
  return { perWaitBytes: (waiting - before) / JOBS, perWaitRss: (rssWaiting - rssBefore) / JOBS, cpuMsPerS, wakeMs };
}

const base: BaselineRun[] = [];
for (let i = 0; i < 3; i++) base.push(await baselineRun());

// Resume steps take 1 ms (adopted clusters start by resuming); hibernation stops in `Stopping` for 10 simulated
// minutes, i.e. until the bench jumps the clock.
const instant = {
  startingMachines: 1,
  machinesStarting: 1,
  nodesStarting: 1,
  clusterOperatorSettle: 1,
  clusterOperators: 1,
  syncSetApply: 1,
  machinesStopping: 1,
};
const bed = await startBed({
  sim: { speed: 1, durations: { ...instant, stopping: STOPPING_MS } },
  simProcess: true,
  env: { BEEKEEPER_CONCURRENCY: String(JOBS + 10), BEEKEEPER_GLOBAL_CONCURRENCY: String(JOBS + 10) },
});
let subject: {
  heapBytes: number;
  rssBytes: number;
  cpuMsPerS: number;
  idleCpuMsPerS: number;
  completeMs: number;
  enqueueMs: number;
};
try {
  const { store, queue, app } = bed.system;
  await app.ready();
  const [warmName, ...names] = await adoptMany(bed.client, NS, JOBS + 1);
  const cds = () =>
    store.cachedList<{ metadata: { name: string }; status?: { powerState?: string } }>('ClusterDeployment', {
      hub: HUB,
      namespace: NS,
    });
  const all = (state: string) =>
    cds().every((c) => c.object.metadata.name === warmName || c.object.status?.powerState === state);
  await until(
    'every cluster Running',
    () => cds().length === JOBS + 1 && cds().every((c) => c.object.status?.powerState === 'Running'),
    120_000,
  );
  const hibernate = async (name: string) => {
    const res = await app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${NS}/${name}/hibernate` });
    if (res.statusCode !== 202) throw new Error(`hibernate ${name}: ${res.statusCode} ${res.body}`);
    return res.json<{ job: JobView }>().job;
  };
  // One job end to end first, so the code paths are compiled and loaded before the heap is measured.
  const warm = await hibernate(warmName!);
  await until(
    'the warm-up job waiting',
    () => cds().find((c) => c.object.metadata.name === warmName)?.object.status?.powerState === 'Stopping',
  );
  await bed.advance(STOPPING_MS + 1000);
  await queue.waitUntilDone(warm.id, 60_000);

  const before = await settledMemory();
  const idleCpuMsPerS = await cpuOver(CPU_WINDOW_MS);
  // 32 requests in flight (a busy API's callers, not N at once: at 1,000 on a loaded machine those time out).
  const jobs: JobView[] = [];
  const [enqueueMs] = await timed(() => mapLimit(names, 32, async (n) => jobs.push(await hibernate(n))));
  // Every job has patched spec.powerState and recorded its Event: from here on each one only waits.
  const requested = async () =>
    (await store.list<KubeObject & { reason?: string }>('Event', HUB, { namespace: NS })).filter(
      (e) => e.reason === 'HibernateRequested',
    ).length;
  await until('every cluster Stopping', () => all('Stopping'), 120_000);
  await until(
    'every job waiting',
    async () =>
      (await requested()) >= JOBS + 1 &&
      (await queue.counts()).find((c) => c.hub === HUB && c.class === 'interactive' && c.state === 'active')?.count ===
        JOBS,
    120_000,
  );
  const waiting = await settledMemory();
  const cpuMsPerS = await cpuOver(CPU_WINDOW_MS);

  const [completeMs, done] = await timed(async () => {
    await bed.advance(STOPPING_MS + 1000);
    return Promise.all(jobs.map((j) => queue.waitUntilDone(j.id, 120_000)));
  });
  const failed = done.filter((j) => j.state !== 'completed');
  if (failed.length > 0) throw new Error(`${failed.length} jobs did not complete: ${JSON.stringify(failed[0])}`);
  subject = {
    heapBytes: (waiting.heap - before.heap) / JOBS,
    rssBytes: (waiting.rss - before.rss) / JOBS,
    cpuMsPerS,
    idleCpuMsPerS,
    completeMs,
    enqueueMs,
  };
} finally {
  await bed.close();
}
for (let i = 0; i < 2; i++) base.push(await baselineRun());

const baseBytes = median(base.map((b) => b.perWaitBytes));
const baseWake = median(base.map((b) => b.wakeMs));
const baseRss = median(base.map((b) => b.perWaitRss));
const baseCpu = median(base.map((b) => b.cpuMsPerS));
console.log(
  `waiting jobs: ${JOBS} hibernate jobs enqueued over HTTP in ${subject.enqueueMs.toFixed(0)} ms; ` +
    `RSS growth per job ${(subject.rssBytes / 1024).toFixed(1)} KiB (promises: ${(baseRss / 1024).toFixed(2)} KiB); ` +
    `CPU ${subject.cpuMsPerS.toFixed(1)} ms/s while they wait, ${subject.idleCpuMsPerS.toFixed(1)} ms/s idle before ` +
    `(promises: ${base.map((b) => b.cpuMsPerS.toFixed(2)).join(' ')} ms/s)`,
);
report([
  row(
    'waiting-jobs',
    `heap per waiting job (${JOBS} jobs)`,
    subject.heapBytes / 1024,
    baseBytes / 1024,
    'KiB',
    'vs a promise on an EventEmitter',
  ),
  row(
    'waiting-jobs',
    `RSS per waiting job (${JOBS} jobs)`,
    subject.rssBytes / 1024,
    baseBytes / 1024,
    'KiB',
    'vs a promise’s heap (the promises’ RSS growth is below page noise)',
  ),
  row(
    'waiting-jobs',
    `CPU while ${JOBS} jobs wait`,
    subject.cpuMsPerS,
    baseCpu,
    'ms/s',
    `process.cpuUsage over ${CPU_WINDOW_MS / 1000} s; Beekeeper idle: ${subject.idleCpuMsPerS.toFixed(1)} ms/s`,
  ),
  row(
    'waiting-jobs',
    `Hive done -> all ${JOBS} jobs completed`,
    subject.completeMs,
    baseWake,
    'ms',
    'vs waking the promises',
  ),
]);
