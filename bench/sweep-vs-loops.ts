// The nightly sweep against what a script would do (issue 14, benchmark 1). N installed, Running ClusterDeployments
// (split evenly over 1 or 3 simulated hubs, TLS on, Hive at 1000x with fake clusters that switch power at once, the
// simulator in its own process). Subject: a manual run of a HibernationSchedule (`POST /v1/schedules/{name}/run`)
// through Beekeeper with its DEFAULT limits (20 QPS, burst 40, per-hub concurrency 20), and once more with the limits
// raised by hand (QPS 1,000, concurrency 50, global 100). Figure: clusters patched per second, from the run request
// to the sweep job done (its PATCHes and its Events), and the time from the run request to the first PATCH seen on
// a hub watch. Baselines in the same run, alternated with the subject, each moving every cluster the same way:
//  - one at a time: a single loop of merge-PATCHes of spec.powerState (undici, keep-alive), cluster after cluster;
//  - flood: the same PATCHes with as many in flight per hub as Beekeeper's per-hub concurrency (its hub limit);
//  - kubectl: a bash loop of `kubectl patch --type merge` over a SAMPLE of clusters (KUBECTL_SAMPLE, default 50),
//    its rate extrapolated to N (the remaining clusters are moved by an untimed flood).
// Ratios: rate / baseline rate (below 1: Beekeeper is slower). Before each round every cluster's status settles.
// Run: npx tsx --expose-gc bench/sweep-vs-loops.ts [clusters] [hubs]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { createLogger } from '../src/logger.js';
import type { JobView } from '../src/services/ports.js';
import type { SweepSummary } from '../src/services/schedules/sweep.js';
import { createSystem } from '../src/system.js';
import { adoptMany, median, report, row, startBed, timed, until, type Bed, type Row } from './support.js';

const CLUSTERS = Number(process.argv[2] ?? 1000);
const HUBS = Number(process.argv[3] ?? 1);
const KUBECTL_SAMPLE = Math.min(CLUSTERS, Number(process.env.KUBECTL_SAMPLE ?? 50));
const ROUNDS = Number(process.env.SWEEP_ROUNDS ?? 2);
const NS = 'bench-loops';
/** Clusters on hub i: N split as evenly as it goes. */
const onHub = (i: number) => Math.floor(CLUSTERS / HUBS) + (i < CLUSTERS % HUBS ? 1 : 0);
const RAISED = { qps: 1000, burst: 1000, concurrency: 50, globalConcurrency: 100 };

type Target = 'Hibernating' | 'Running';
// The schedule runs clusters Mon-Fri 08:00-18:00 Berlin: 11:00Z on a weekday is "Running", 20:00Z "Hibernating".
// Each sweep round takes the next such instant (the clocks only move forward).
let day = Date.parse('2026-11-23T00:00:00Z');
function nextEdge(target: Target): number {
  for (;;) {
    const at = day + (target === 'Running' ? 11 : 20) * 3_600_000;
    const weekday = new Date(day).getUTCDay();
    if (target === 'Hibernating') day += 86_400_000;
    if (weekday >= 1 && weekday <= 5) return at;
    if (target === 'Running') day += 86_400_000;
  }
}

const bed: Bed = await startBed({
  startMs: Date.parse('2026-11-22T12:00:00Z'),
  simProcess: true,
  hubs: HUBS,
  defaultLimits: true,
  sim: { tls: true },
});
const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, connections: 64, pipelining: 1 });
const tmp = mkdtempSync(join(tmpdir(), 'bk-bench-kubectl-'));
const rates: Record<string, number[]> = {};
const firstPatch: Record<string, number[]> = {};
const push = (m: Record<string, number[]>, k: string, v: number) => (m[k] ??= []).push(v);
const names: Array<{ hub: (typeof bed.hubs)[number]; name: string }> = [];

const cdPath = (ns: string, name?: string) =>
  `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments${name ? `/${name}` : ''}`;

async function kube(hub: (typeof bed.hubs)[number], method: 'GET' | 'PATCH', path: string, body?: unknown) {
  const res = await request(`${hub.url}${path}`, {
    method,
    dispatcher,
    headers: {
      authorization: `Bearer ${hub.token}`,
      ...(body ? { 'content-type': 'application/merge-patch+json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * A watch on every hub from the current resourceVersion; `first` resolves with performance.now() of the first
 * event whose spec.powerState is `target`. Resolves once every watch is open.
 */
async function openWatch(target: Target): Promise<{ first: Promise<number>; stop: () => void }> {
  const ac = new AbortController();
  const opened = await Promise.all(
    bed.hubs.map(async (h) => {
      const list = await kube(h, 'GET', `${cdPath(NS)}?limit=1`);
      const rv = (list.metadata as { resourceVersion: string }).resourceVersion;
      return request(`${h.url}${cdPath(NS)}?watch=true&resourceVersion=${rv}`, {
        headers: { authorization: `Bearer ${h.token}` },
        dispatcher,
        signal: ac.signal,
      });
    }),
  );
  const first = Promise.any(
    opened.map(async (res) => {
      let buf = '';
      for await (const chunk of res.body) {
        buf += (chunk as Buffer).toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: { spec?: { powerState?: string } } };
          buf = buf.slice(nl + 1);
          if (ev.type === 'MODIFIED' && (ev.object.spec?.powerState ?? 'Running') === target) return performance.now();
        }
      }
      throw new Error('watch ended');
    }),
  );
  first.catch(() => undefined);
  return { first, stop: () => ac.abort() };
}

const patchOne = (c: (typeof names)[number], target: Target) =>
  kube(c.hub, 'PATCH', cdPath(NS, c.name), { spec: { powerState: target } });

async function settle(target: Target) {
  const done = async () => {
    for (const [i, h] of bed.hubs.entries()) {
      const list = await kube(h, 'GET', cdPath(NS));
      const items = list.items as Array<{ spec?: { powerState?: string }; status?: { powerState?: string } }>;
      if (items.length !== onHub(i)) return false;
      if (!items.every((i) => (i.spec?.powerState ?? 'Running') === target && i.status?.powerState === target))
        return false;
    }
    return true;
  };
  await until(`every cluster ${target}`, done, 600_000);
}

/** Runs `fn` per hub with `width` in flight on each hub, all hubs at once. */
async function perHub(width: number, fn: (c: (typeof names)[number]) => Promise<unknown>, only = names) {
  await Promise.all(
    bed.hubs.map(async (h) => {
      const mine = only.filter((c) => c.hub === h);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(width, mine.length) }, async () => {
          while (next < mine.length) await fn(mine[next++]!);
        }),
      );
    }),
  );
}

const kubeconfigFile = join(tmp, 'kubeconfig');
const execFileP = promisify(execFile);

type Subject = 'beekeeper' | 'beekeeper-raised' | 'one-at-a-time' | 'flood' | 'kubectl';

async function round(subject: Subject, target: Target): Promise<void> {
  const watch = await openWatch(target);
  let n = CLUSTERS;
  const t0 = performance.now();
  let ms: number;
  try {
    if (subject === 'beekeeper' || subject === 'beekeeper-raised') {
      const { app, queue } = bed.system;
      const res = await app.inject({ method: 'POST', url: '/v1/schedules/bench/run' });
      if (res.statusCode !== 202) throw new Error(`run: ${res.statusCode} ${res.body}`);
      const done = await queue.waitUntilDone(res.json<{ job: JobView }>().job.id, 1_800_000);
      ms = performance.now() - t0;
      if (done.state !== 'completed') throw new Error(`sweep ${done.state}: ${JSON.stringify(done.error)}`);
      const summary = done.result as SweepSummary;
      if (summary.counts.acted !== CLUSTERS)
        throw new Error(
          `${subject} ${target}: acted on ${summary.counts.acted} of ${CLUSTERS}: ${JSON.stringify(summary.skippedReasons)} ${JSON.stringify(summary.failed.slice(0, 2))}`,
        );
    } else if (subject === 'one-at-a-time') {
      for (const c of names) await patchOne(c, target);
      ms = performance.now() - t0;
    } else if (subject === 'flood') {
      await perHub(bed.config.hubs[0]!.backgroundConcurrency, (c) => patchOne(c, target));
      ms = performance.now() - t0;
    } else {
      // kubectl: a shell loop over a sample (each kubectl is a fresh process: ~100+ ms of CPU alone).
      const sample = names.slice(0, KUBECTL_SAMPLE);
      const script = sample
        .map(
          (c) =>
            `kubectl --kubeconfig ${kubeconfigFile} --context ${c.hub.name} -n ${NS} patch clusterdeployment ${c.name} --type merge -p '{"spec":{"powerState":"${target}"}}' >/dev/null`,
        )
        .join('\n');
      await execFileP('bash', ['-e', '-c', script], { maxBuffer: 1 << 24 });
      ms = performance.now() - t0;
      n = sample.length;
      await perHub(20, (c) => patchOne(c, target), names.slice(KUBECTL_SAMPLE));
    }
    const firstAt = await Promise.race([watch.first, new Promise<number>((r) => setTimeout(() => r(NaN), 5000))]);
    push(firstPatch, subject, firstAt - t0);
  } finally {
    watch.stop();
  }
  push(rates, subject, n / (ms / 1000));
  await settle(target);
}

let sweepSeconds = 0;
try {
  writeFileSync(kubeconfigFile, (await import('yaml')).stringify(await simKubeconfig()));
  const [seedMs] = await timed(() =>
    Promise.all(
      bed.hubs.map(async (h, i) => {
        const created = await adoptMany(h.client, NS, onHub(i), { fake: true, kubeconfigs: false });
        for (const name of created) names.push({ hub: h, name });
      }),
    ),
  );
  await settle('Running');
  console.log(`seeded ${CLUSTERS} clusters on ${HUBS} hub(s) in ${(seedMs / 1000).toFixed(1)} s`);
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
  await bed.system.store.waitFor(
    'HibernationSchedule',
    { hub: bed.hubs[0]!.name, namespace: bed.config.stateNamespace, name: 'bench' },
    (o) => o,
    { timeoutMs: 10_000 },
  );

  // Alternating: the target flips every round; a sweep round first moves the clocks to an instant where the
  // schedule wants that target.
  let target: Target = 'Hibernating';
  const flip = () => (target = target === 'Hibernating' ? 'Running' : 'Hibernating');
  const sweepRound = async (subject: Subject) => {
    await bed.setTime(nextEdge(target));
    const [ms] = await timed(() => round(subject, target));
    sweepSeconds += ms / 1000;
    flip();
  };
  for (let r = 0; r < ROUNDS; r++) {
    await sweepRound('beekeeper');
    await round('one-at-a-time', target);
    flip();
    await round('flood', target);
    flip();
    if (r === 0) {
      await round('kubectl', target);
      flip();
    }
  }
  // Raised limits: a second Beekeeper in place of the first, same Redis prefix and hubs.
  await bed.system.close();
  const raised = {
    ...bed.config,
    hubs: bed.config.hubs.map((h) => ({
      ...h,
      ...RAISED,
      backgroundConcurrency: RAISED.concurrency,
      backgroundGlobalConcurrency: RAISED.globalConcurrency,
    })),
  };
  bed.system = await createSystem({
    config: raised,
    log: createLogger({ level: 'silent' }),
    clock: bed.clock,
    roles: ['api', 'worker'],
  });
  await until('the raised Beekeeper synced', () =>
    bed.hubs.every(
      (h, i) => bed.system.store.cachedList('ClusterDeployment', { hub: h.name, namespace: NS }).length === onHub(i),
    ),
  );
  for (let r = 0; r < ROUNDS; r++) {
    await sweepRound('beekeeper-raised');
    await round('flood', target);
    flip();
  }
} finally {
  await bed.close();
  await dispatcher.close();
  rmSync(tmp, { recursive: true, force: true });
}

async function simKubeconfig() {
  // The bed's kubeconfig text holds every hub's context (insecure-skip-tls-verify: the simulator's own cert).
  return (await import('yaml')).parse(bed.config.hubs[0]!.kubeconfigData!) as unknown;
}

const m = (k: Subject) => median(rates[k] ?? [NaN]);
const fp = (k: Subject) => median(firstPatch[k] ?? [NaN]);
const tag = `${CLUSTERS} clusters, ${HUBS} hub${HUBS > 1 ? 's' : ''}`;
console.log(
  `sweep vs loops (${tag}), clusters/s per round: ${Object.entries(rates)
    .map(([k, v]) => `${k} ${v.map((x) => x.toFixed(1)).join(' ')}`)
    .join('; ')}; first PATCH after (ms): ${Object.entries(firstPatch)
    .map(([k, v]) => `${k} ${v.map((x) => x.toFixed(0)).join(' ')}`)
    .join('; ')}; sweep rounds took ${sweepSeconds.toFixed(0)} s in all`,
);
const B = 'sweep-vs-loops';
const rows: Row[] = [
  row(B, `default sweep / one-at-a-time (${tag})`, m('beekeeper'), m('one-at-a-time'), 'patches/s', 'rate ratio'),
  row(
    B,
    `default sweep / flood (${tag})`,
    m('beekeeper'),
    m('flood'),
    'patches/s',
    `flood at ${bed.config.hubs[0]!.backgroundConcurrency} in flight per hub`,
  ),
  row(
    B,
    `default sweep / kubectl loop (${tag})`,
    m('beekeeper'),
    m('kubectl'),
    'patches/s',
    `kubectl over ${KUBECTL_SAMPLE} clusters, extrapolated`,
  ),
  row(B, `raised-limits sweep / flood (${tag})`, m('beekeeper-raised'), m('flood'), 'patches/s', 'QPS 1000, conc 50'),
  row(B, `run request -> first PATCH, default (${tag})`, fp('beekeeper'), fp('flood'), 'ms', 'vs the flood’s first'),
  // Whole-sweep times, for bench/run.ts's growth rows (1,000 vs 10,000 clusters).
  {
    ...row(B, `sweep time, default (${tag})`, CLUSTERS / m('beekeeper'), CLUSTERS / m('flood'), 's', 'vs the flood'),
    key: `sweep time, default limits, ${HUBS} hub(s)`,
    n: CLUSTERS,
  },
  {
    ...row(
      B,
      `sweep time, raised (${tag})`,
      CLUSTERS / m('beekeeper-raised'),
      CLUSTERS / m('flood'),
      's',
      'vs the flood',
    ),
    key: `sweep time, raised limits, ${HUBS} hub(s)`,
    n: CLUSTERS,
  },
];
report(rows);
// Something of the replaced system (or undici's aborted watches) keeps the loop alive; the figures are out.
process.exit(0);
