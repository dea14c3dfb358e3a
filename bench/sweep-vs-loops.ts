// The nightly sweep against what a script would do (issue 14, benchmark 1). N installed, Running ClusterDeployments
// (split evenly over 1 or 3 simulated hubs, TLS on, Hive at 1000x with fake clusters that switch power at once, each
// hub's simulator in its own process, as each real hub is its own API server; SWEEP_ONE_SIM=1 serves every hub from
// one process). Subject: Beekeeper (api, worker and scheduler roles) with its DEFAULT settings, as
// the config loader gives them at run time, sweeping at a REAL schedule edge: the bench sets the clocks two seconds
// before the edge and the scheduler's own timer fires it (no run request). Figures: clusters patched per second,
// from the edge to every cluster's PATCH accepted (seen on a hub watch: the baselines count to their last PATCH
// answered, which a watch sees later, so this favours them) and, reported apart, to the sweep job done (its Events
// and its record on the schedule written too); the time from the edge to the first PATCH seen
// on a hub watch; the time from the edge to every cluster reporting Hibernating (status.powerState, at simulator
// speed). Baselines in the same run, alternated with the subject, each moving every cluster the same way:
//  - one at a time: a single loop of merge-PATCHes of spec.powerState (undici, keep-alive), cluster after cluster;
//  - flood: the same PATCHes with as many in flight on every hub as the sweep's default per-hub concurrency (its
//    hub limit: `sweepConcurrency`, or the background concurrency of versions without it);
//  - kubectl: a bash loop of `kubectl patch --type merge` over a SAMPLE of clusters (KUBECTL_SAMPLE, default 50),
//    its rate extrapolated to N (the remaining clusters are moved by an untimed flood).
// Ratios: rate / baseline rate (below 1: Beekeeper is slower); times: above 1, Beekeeper takes longer. Every round
// waits until every cluster's status settles (seen on the round's watch, checked by one LIST per hub).
// Run: npx tsx --expose-gc bench/sweep-vs-loops.ts [clusters] [hubs]   (SWEEP_ROUNDS, default 2; KUBECTL_SAMPLE)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent } from 'undici';
import type { HibernationSchedule } from '../src/services/schedules/index.js';
import { compile } from '../src/services/schedules/index.js';
import { jobIds } from '../src/services/job-ids.js';
import type { SweepSummary } from '../src/services/schedules/sweep.js';
import { adoptMany, hubLimits, report, startBed, timed, until, type Bed } from './support.js';
import { mapLimit } from '../src/map-limit.js';
import { hubCalls, type Target, type Watch } from './hub-watch.js';
import { sweepRows, type Subject } from './sweep-rows.js';

const CLUSTERS = Number(process.argv[2] ?? 1000);
const HUBS = Number(process.argv[3] ?? 1);
const KUBECTL_SAMPLE = Math.min(CLUSTERS, Number(process.env.KUBECTL_SAMPLE ?? 50));
const ROUNDS = Number(process.env.SWEEP_ROUNDS ?? 2);
const NS = 'bench-loops';
/** How long before an edge the clocks are set: the scheduler's timer then fires it in real time. */
const LEAD_MS = 2000;
/** Clusters on hub i: N split as evenly as it goes. */
const onHub = (i: number) => Math.floor(CLUSTERS / HUBS) + (i < CLUSTERS % HUBS ? 1 : 0);

const bed: Bed = await startBed({
  // A Sunday: the schedule below has its first edge on Monday.
  startMs: Date.parse('2026-11-22T12:00:00Z'),
  simProcess: true,
  // Real hubs are separate API servers: a simulator process per hub (SWEEP_ONE_SIM=1: all hubs in one, as before).
  simPerHub: process.env.SWEEP_ONE_SIM !== '1',
  hubs: HUBS,
  defaultLimits: true,
  roles: ['api', 'worker', 'scheduler'],
  sim: { tls: true },
});
const limits = hubLimits(bed.config.hubs[0]!);
const FLOOD = limits.sweepConcurrency;
const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, connections: FLOOD * 2, pipelining: 1 });
const tmp = mkdtempSync(join(tmpdir(), 'bk-bench-kubectl-'));
const rates: Record<string, number[]> = {};
const firstPatch: Record<string, number[]> = {};
const allHibernating: Record<string, number[]> = {};
const jobDone: Record<string, number[]> = {};
const push = (m: Record<string, number[]>, k: string, v: number) => (m[k] ??= []).push(v);
const names: Array<{ hub: (typeof bed.hubs)[number]; name: string }> = [];

const { openWatch, patchOne, unsettledByList } = hubCalls({
  hubs: bed.hubs,
  dispatcher,
  ns: NS,
  clusters: CLUSTERS,
  onHub,
});

async function settle(target: Target) {
  const end = Date.now() + 1_800_000;
  let away: number;
  while ((away = await unsettledByList(target)) > 0) {
    if (Date.now() > end) throw new Error(`timed out waiting for every cluster ${target}: ${away} not yet`);
    if (process.env.BENCH_DEBUG) console.error(`${away} clusters not yet ${target}`);
    // A LIST of every cluster costs the simulator real CPU (about 1 s at 10,000 on a loaded machine): polled every
    // 500 ms it starved Hive's controllers and a 10,000-cluster bed never settled. Poll less the bigger the bed.
    await new Promise((r) => setTimeout(r, Math.max(2000, CLUSTERS * 2)));
  }
}

/** Runs `fn` per hub with `width` in flight on each hub, all hubs at once. */
async function perHub(width: number, fn: (c: (typeof names)[number]) => Promise<unknown>, only = names) {
  await Promise.all(
    bed.hubs.map((h) =>
      mapLimit(
        only.filter((c) => c.hub === h),
        width,
        fn,
      ),
    ),
  );
}

/** A kubeconfig per hub: with a simulator process per hub, each hub's server, token and CA are its own. */
const kubeconfigFile = (hub: string) => join(tmp, `kubeconfig-${hub}`);
const execFileP = promisify(execFile);
/** Without kubectl on PATH that baseline is left out (said in the log line), as the tests skip what needs it. */
const haveKubectl = await execFileP('kubectl', ['version', '--client']).then(
  () => true,
  () => false,
);

let schedule: HibernationSchedule | undefined;

/**
 * Sets the clocks LEAD_MS before the schedule's next edge that moves clusters to `target` and returns that edge
 * (ms) and the performance.now() at which the clocks reach it. Edges jumped over on the way fire too, but run
 * hours after their instant, beyond the schedule's catchUpDeadline: those sweeps record themselves stale and act
 * on nothing.
 */
async function approachEdge(target: Target): Promise<{ edgeMs: number; t0: number }> {
  const want = target === 'Hibernating' ? 'hibernate' : 'resume';
  let edge = compile(schedule!).nextEdge(bed.clock.now() + LEAD_MS);
  while (edge && edge.action !== want) edge = compile(schedule!).nextEdge(Date.parse(edge.at));
  if (!edge) throw new Error(`the schedule has no ${want} edge`);
  const edgeMs = Date.parse(edge.at);
  await bed.setTime(edgeMs - LEAD_MS);
  return { edgeMs, t0: performance.now() + (edgeMs - bed.clock.now()) };
}

async function round(subject: Subject, target: Target): Promise<void> {
  let n = CLUSTERS;
  let ms: number;
  let t0: number;
  let watch: Watch | undefined;
  try {
    if (subject === 'beekeeper') {
      // The watch opens before the clocks move: the edge is then at most LEAD_MS away.
      watch = await openWatch(target);
      const edge = await approachEdge(target);
      t0 = edge.t0;
      const id = jobIds.on(bed.config.stateHub, jobIds.sweep('bench', edge.edgeMs));
      const { queue } = bed.system;
      await until(`the sweep of ${new Date(edge.edgeMs).toISOString()} enqueued`, async () =>
        Boolean(await queue.get(id)),
      );
      const done = await queue.waitUntilDone(id, 3_600_000);
      // Two figures: to every PATCH accepted (seen on the watch: later than accepted, never earlier), which is what
      // the baselines' times are (their last PATCH answered) and what the ratios use; and to the job done (its
      // Events and its record on the schedule written too), reported beside it.
      push(jobDone, subject, CLUSTERS / ((performance.now() - t0) / 1000));
      ms = (await Promise.race([watch.patched, new Promise<number>((r) => setTimeout(() => r(NaN), 60_000))])) - t0;
      if (done.state !== 'completed') throw new Error(`sweep ${done.state}: ${JSON.stringify(done.error)}`);
      if (process.env.BENCH_DEBUG) {
        // Where the time from the edge to the first PATCH goes (the job's times are wall-clock, BullMQ's).
        const wallT0 = Date.now() - (performance.now() - t0);
        const at = (iso?: string) => (iso ? `${Date.parse(iso) - wallT0} ms` : '-');
        console.error(
          `sweep ${id}: created ${at(done.createdAt)}, started ${at(done.startedAt)}, steps ${done.steps.map((s) => `${s.step} ${at(s.at)}`).join(', ')}, finished ${at(done.finishedAt)} after the edge`,
        );
      }
      const summary = done.result as SweepSummary;
      if (summary.counts.acted !== CLUSTERS)
        throw new Error(
          `${subject} ${target}: acted on ${summary.counts.acted} of ${CLUSTERS}: ${JSON.stringify(summary.skippedReasons)} ${JSON.stringify(summary.failed.slice(0, 2))}`,
        );
    } else {
      watch = await openWatch(target);
      t0 = performance.now();
      if (subject === 'one-at-a-time') {
        for (const c of names) await patchOne(c, target);
        ms = performance.now() - t0;
      } else if (subject === 'flood') {
        await perHub(FLOOD, (c) => patchOne(c, target));
        ms = performance.now() - t0;
      } else {
        // kubectl: a shell loop over a sample (each kubectl is a fresh process: ~100+ ms of CPU alone).
        const sample = names.slice(0, KUBECTL_SAMPLE);
        const script = sample
          .map(
            (c) =>
              `kubectl --kubeconfig ${kubeconfigFile(c.hub.name)} --context ${c.hub.name} -n ${NS} patch clusterdeployment ${c.name} --type merge -p '{"spec":{"powerState":"${target}"}}' >/dev/null`,
          )
          .join('\n');
        await execFileP('bash', ['-e', '-c', script], { maxBuffer: 1 << 24 });
        ms = performance.now() - t0;
        n = sample.length;
        await perHub(FLOOD, (c) => patchOne(c, target), names.slice(KUBECTL_SAMPLE));
      }
    }
    const firstAt = await Promise.race([watch.first, new Promise<number>((r) => setTimeout(() => r(NaN), 5000))]);
    push(firstPatch, subject, firstAt - t0);
    const settledAt = await Promise.race([
      watch.settled,
      new Promise<number>((r) => setTimeout(() => r(NaN), 600_000)),
    ]);
    if (target === 'Hibernating') push(allHibernating, subject, settledAt - t0);
  } finally {
    watch?.stop();
  }
  push(rates, subject, n / (ms / 1000));
  await settle(target);
}

let sweepSeconds = 0;
try {
  for (const h of bed.config.hubs) writeFileSync(kubeconfigFile(h.name), h.kubeconfigData!);
  const [seedMs] = await timed(() =>
    Promise.all(
      bed.hubs.map(async (h, i) => {
        const created = await adoptMany(h.client, NS, onHub(i), { fake: true, kubeconfigs: false });
        for (const name of created) names.push({ hub: h, name });
      }),
    ),
  );
  await settle('Running');
  console.log(
    `seeded ${CLUSTERS} clusters on ${HUBS} hub(s) in ${(seedMs / 1000).toFixed(1)} s; defaults: ${limits.label}`,
  );
  const created = await bed.system.app.inject({
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
  schedule = await bed.system.store.waitFor<HibernationSchedule, HibernationSchedule>(
    'HibernationSchedule',
    { hub: bed.hubs[0]!.name, namespace: bed.config.stateNamespace, name: 'bench' },
    // Armed: the scheduler has written the next edge.
    (o) => (o?.status?.nextEdge ? o : undefined),
    { timeoutMs: 10_000 },
  );

  // Alternating: the target flips every round; a sweep round moves the clocks to the next edge for that target.
  let target: Target = 'Hibernating';
  const flip = () => (target = target === 'Hibernating' ? 'Running' : 'Hibernating');
  for (let r = 0; r < ROUNDS; r++) {
    // The sweep and the flood both hibernate (the other rounds resume): their "every cluster Hibernating" compare.
    if (target !== 'Hibernating') {
      await round('flood', target);
      flip();
    }
    const [ms] = await timed(() => round('beekeeper', target));
    sweepSeconds += ms / 1000;
    flip();
    await round('one-at-a-time', target);
    flip();
    await round('flood', target);
    flip();
    if (r === 0 && haveKubectl) {
      await round('kubectl', target);
      flip();
    }
  }
} finally {
  await bed.close();
  await dispatcher.close();
  rmSync(tmp, { recursive: true, force: true });
}

report(
  sweepRows(
    { rates, firstPatch, allHibernating, jobDone },
    { clusters: CLUSTERS, hubs: HUBS, flood: FLOOD, kubectlSample: KUBECTL_SAMPLE, limits: limits.label },
    { sweepSeconds, haveKubectl },
  ),
);
// undici's aborted watches (or a closed system's timer) may keep the loop alive; the figures are out.
process.exit(0);
