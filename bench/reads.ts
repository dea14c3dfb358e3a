// Reads over real HTTP (issue 14, benchmark 2). N ClusterDeployments (labelled team=t0..t9, so a filter matches a
// tenth) on a simulated hub in its own process, Hive's controllers off; Beekeeper's api (+ worker) in this process,
// listening on loopback. A closed-loop client of 16 connections in a child process (bench/http-load.ts) sends, for
// DURATION each:
//  - GET /v1/clusters?labelSelector=team=tK&limit=100 (and limit=1000): the first page of a filtered list, K cycling;
//  - GET /v1/clusters/{hub}/{ns}/{name}: single gets cycling over every cluster;
// Baseline, alternated with each: the same question asked of the API server itself, one LIST (or GET) per request
// with the same label selector and limit, i.e. what a client without Beekeeper's cache would do. Figures: requests/s
// (ratio = rate / baseline rate: below 1 means the cache answers slower than the API server), p50 and p99; and CPU per
// request of each server (Beekeeper's process against the simulator's, from /proc on Linux) and of the client, which
// the machine's other load does not move the way it moves rates and tails on a shared 2-core machine.
// Run: npx tsx --expose-gc bench/reads.ts [clusters] [seconds]
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { adoptMany, HUB, median, report, row, startBed, until, type Row } from './support.js';

const COUNT = Number(process.argv[2] ?? 10_000);
const SECONDS = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.env.READS_ROUNDS ?? 2);
const CONNECTIONS = 16;
/** READS_CASES=single (or list100, list1000, comma-separated): only those cases, to measure one change quickly. */
const ONLY = process.env.READS_CASES?.split(',');
const NS = 'bench-reads';

interface LoadResult {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  durationMs: number;
  /** The client's own CPU (ms). */
  cpuMs: number;
}

/** CPU (ms, user + system) a process has used so far, from /proc (Linux; clock ticks of 10 ms); NaN elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15)
  } catch {
    return NaN;
  }
}

/** The simulator's process: this process's child running bench/sim-host.ts (startBed's simProcess). */
function simulatorPid(): number | undefined {
  const children = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  for (const d of children) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('sim-host')) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** CPU (ms per second) `pid` uses with no requests: Beekeeper's process also holds informers and a worker. */
async function idleCpu(pid: number): Promise<number> {
  const before = cpuMsOf(pid);
  await new Promise((r) => setTimeout(r, 3000));
  return (cpuMsOf(pid) - before) / 3;
}

/** `run`'s result and the CPU `pid` used meanwhile above its idle rate (ms). */
async function withCpu(
  pid: number,
  idleMsPerSecond: number,
  run: () => Promise<LoadResult>,
): Promise<LoadResult & { serverCpuMs: number }> {
  const before = cpuMsOf(pid);
  const result = await run();
  return { ...result, serverCpuMs: cpuMsOf(pid) - before - (idleMsPerSecond * result.durationMs) / 1000 };
}

function load(origin: string, paths: string[], headers?: Record<string, string>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = fork(fileURLToPath(new URL('./http-load.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Over IPC, not argv: 10,000 paths exceed the kernel's limit for one argument.
    w.send({ origin, paths, headers, connections: CONNECTIONS, durationMs: SECONDS * 1000 });
    w.once('message', (m) => resolve(m as LoadResult));
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited ${code}`)));
  });
}

const perRequest = (xs: Array<LoadResult & { serverCpuMs: number }>, k: 'cpuMs' | 'serverCpuMs') =>
  median(xs.map((x) => (x[k] * 1000) / x.count));

const bed = await startBed({
  sim: { controllers: false },
  simProcess: true, // The per-caller rate limit (600/min by default) is off: the bench is one caller asking as fast as it can.
  env: { BEEKEEPER_AUTH_OPEN: 'true', BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0' },
});
const rows: Row[] = [];
try {
  const names: string[] = [];
  // adoptMany labels all alike; ten batches give ten teams.
  const per = Math.ceil(COUNT / 10);
  for (let t = 0; t < 10; t++) {
    const ns = `${NS}-${t}`;
    const made = await adoptMany(bed.client, ns, per, { kubeconfigs: false, labels: { team: `t${t}` } });
    names.push(...made.map((n) => `${ns}/${n}`));
  }
  await until(
    'the cache holds every cluster',
    () => bed.system.store.cachedList('ClusterDeployment', { hub: HUB }).length >= per * 10,
    300_000,
  );
  const app = bed.system.app;
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const hub = bed.hubs[0]!;
  const auth = { authorization: `Bearer ${hub.token}` };
  const teams = Array.from({ length: 10 }, (_, t) => `t${t}`);
  const probe = await fetch(`${address}/v1/clusters?labelSelector=team%3Dt3&limit=100`);
  if (probe.status !== 200) throw new Error(`GET /v1/clusters: ${probe.status} ${await probe.text()}`);
  const page = (await probe.json()) as { items: unknown[]; total: number };
  if (page.items.length !== 100 || page.total !== per)
    throw new Error(`expected 100 of ${per}, got ${page.items.length} of ${page.total}`);

  const cases = [
    {
      key: 'list100',
      name: `filtered list, 100 per page (of ${per * 10})`,
      subject: teams.map((t) => `/v1/clusters?labelSelector=team%3D${t}&limit=100`),
      base: teams.map((t) => `/apis/hive.openshift.io/v1/clusterdeployments?labelSelector=team%3D${t}&limit=100`),
    },
    {
      key: 'list1000',
      name: `filtered list, 1000 per page (of ${per * 10})`,
      subject: teams.map((t) => `/v1/clusters?labelSelector=team%3D${t}&limit=1000`),
      base: teams.map((t) => `/apis/hive.openshift.io/v1/clusterdeployments?labelSelector=team%3D${t}&limit=1000`),
    },
    {
      key: 'single',
      name: `single get (of ${per * 10})`,
      subject: names.map((n) => `/v1/clusters/${HUB}/${n}`),
      base: names.map((n) => {
        const [ns, name] = n.split('/');
        return `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments/${name}`;
      }),
    },
  ];
  const simPid = simulatorPid() ?? -1;
  const idle = { beekeeper: await idleCpu(process.pid), simulator: await idleCpu(simPid) };
  console.log(`idle CPU: beekeeper ${idle.beekeeper.toFixed(0)} ms/s, simulator ${idle.simulator.toFixed(0)} ms/s`);
  for (const c of cases.filter((x) => !ONLY || ONLY.includes(x.key))) {
    const s: Array<LoadResult & { serverCpuMs: number }> = [];
    const b: Array<LoadResult & { serverCpuMs: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      s.push(await withCpu(process.pid, idle.beekeeper, () => load(address, c.subject)));
      b.push(await withCpu(simPid, idle.simulator, () => load(hub.url, c.base, auth)));
    }
    const errors = [...s, ...b].reduce((n, x) => n + x.errors, 0);
    if (errors > 0) throw new Error(`${c.name}: ${errors} failed requests`);
    const rps = (xs: LoadResult[]) => median(xs.map((x) => x.count / (x.durationMs / 1000)));
    console.log(
      `${c.name}: beekeeper ${s.map((x) => `${x.count} req p50 ${x.p50.toFixed(1)} p99 ${x.p99.toFixed(1)}`).join(', ')}; ` +
        `api server ${b.map((x) => `${x.count} req p50 ${x.p50.toFixed(1)} p99 ${x.p99.toFixed(1)}`).join(', ')}`,
    );
    const note = `${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS}; baseline: the API server (simulator) per request`;
    rows.push(
      row('reads', `${c.name}: requests/s`, rps(s), rps(b), 'req/s', note),
      row('reads', `${c.name}: p50`, median(s.map((x) => x.p50)), median(b.map((x) => x.p50)), 'ms'),
      row('reads', `${c.name}: p99`, median(s.map((x) => x.p99)), median(b.map((x) => x.p99)), 'ms'),
      // Per request, in µs: below 1 means Beekeeper's server (or the client reading its answers) works less.
      row(
        'reads',
        `${c.name}: server CPU per request above idle`,
        perRequest(s, 'serverCpuMs'),
        perRequest(b, 'serverCpuMs'),
        'µs',
      ),
      row('reads', `${c.name}: client CPU per request`, perRequest(s, 'cpuMs'), perRequest(b, 'cpuMs'), 'µs'),
    );
  }
} finally {
  await bed.close();
}
report(rows);
