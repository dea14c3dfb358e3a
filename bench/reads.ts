// Reads over real HTTP (issue 14, benchmark 2). N ClusterDeployments (labelled team=t0..t9, so a filter matches a
// tenth) on a simulated hub in its own process, Hive's controllers off; Beekeeper's api role in its own process as
// the image runs it (`node dist/main/api.js`, the image's NODE_OPTIONS, default settings: bench/role-process.ts),
// listening on loopback, so each server has a process to itself. READS_RUNTIME=tsx: the role from src/ under tsx;
// READS_NODE_OPTIONS replaces the image's NODE_OPTIONS; READS_NODE_ARGS adds `node` flags (`--cpu-prof`). A closed-loop client of 16 connections in a child process (bench/http-load.ts) sends, for
// DURATION each:
//  - GET /v1/clusters?labelSelector=team=tK&limit=100 (and limit=1000): the first page of a filtered list, K cycling;
//  - GET /v1/clusters/{hub}/{ns}/{name}: single gets cycling over every cluster;
// Baseline, alternated with each: the same question asked of the API server itself, one LIST (or GET) per request
// with the same label selector and limit, i.e. what a client without Beekeeper's cache would do. Figures: requests/s
// (ratio = rate / baseline rate: below 1 means the cache answers slower than the API server), p50 and p99; and CPU per
// request of each server (Beekeeper's process against the simulator's, from /proc on Linux) and of the client, which
// the machine's other load does not move the way it moves rates and tails on a shared 2-core machine.
// Run: npx tsx --expose-gc bench/reads.ts [clusters] [seconds]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKubeClient } from '../src/sim/client/index.js';
import { runLoad, type LoadResult } from './http-load-client.js';
import { prepareHubForRoles, startRole, type RoleProcess } from './role-process.js';
import {
  adoptMany,
  deleteKeys,
  HUB,
  median,
  REDIS_URL,
  report,
  row,
  startSimHost,
  until,
  type Row,
} from './support.js';

const COUNT = Number(process.argv[2] ?? 10_000);
const SECONDS = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.env.READS_ROUNDS ?? 2);
const CONNECTIONS = 16;
/** READS_CASES=single (or list100, list1000, comma-separated): only those cases, to measure one change quickly. */
const ONLY = process.env.READS_CASES?.split(',');
const NS = 'bench-reads';

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

/** CPU (ms per second) `pid` uses with no requests: Beekeeper's api keeps its informers and probes going. */
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

function load(origin: string, paths: string[], headers?: Record<string, string>, warmUp = false): Promise<LoadResult> {
  return runLoad({
    origin,
    paths,
    ...(headers ? { headers } : {}),
    connections: CONNECTIONS,
    ...(warmUp ? { durationMs: 120_000, requests: paths.length } : { durationMs: SECONDS * 1000 }),
  });
}

const perRequest = (xs: Array<LoadResult & { serverCpuMs: number }>, k: 'cpuMs' | 'serverCpuMs') =>
  median(xs.map((x) => (x[k] * 1000) / x.count));

const host = await startSimHost({ hubNames: [HUB], speed: 1000, controllers: false }, Date.now());
const tmp = mkdtempSync(join(tmpdir(), 'bk-bench-reads-'));
const prefix = `{bk-bench-${randomUUID().slice(0, 8)}}`;
let api: RoleProcess | undefined;
const rows: Row[] = [];
try {
  const client = createKubeClient({ server: host.url, token: host.token, insecureSkipTLSVerify: true });
  const names: string[] = [];
  // adoptMany labels all alike; ten batches give ten teams.
  const per = Math.ceil(COUNT / 10);
  for (let t = 0; t < 10; t++) {
    const ns = `${NS}-${t}`;
    const made = await adoptMany(client, ns, per, { kubeconfigs: false, labels: { team: `t${t}` } });
    names.push(...made.map((n) => `${ns}/${n}`));
  }
  const hubs = await prepareHubForRoles(host.kubeconfig, tmp, prefix);
  // The per-caller rate limit (600/min by default) is off: the bench is one caller asking as fast as it can.
  api = await startRole('api', {
    hubs,
    redisUrl: REDIS_URL,
    redisPrefix: prefix,
    runtime: process.env.READS_RUNTIME === 'tsx' ? 'tsx' : 'node',
    ...(process.env.READS_NODE_OPTIONS !== undefined ? { nodeOptions: process.env.READS_NODE_OPTIONS } : {}),
    ...(process.env.READS_NODE_ARGS ? { nodeArgs: process.env.READS_NODE_ARGS.split(' ') } : {}),
    env: { BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0' },
  });
  const address = api.base;
  const role = api;
  await until(
    'the api role lists every cluster',
    async () => {
      if (role.exited()) throw new Error('the api role exited before it was ready');
      try {
        const res = await fetch(`${address}/v1/clusters?limit=1`);
        return res.ok && ((await res.json()) as { total: number }).total === per * 10;
      } catch {
        return false;
      }
    },
    300_000,
  );
  const hub = { url: host.url, token: host.token };
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
  const simPid = host.pid;
  const idle = { beekeeper: await idleCpu(api.pid), simulator: await idleCpu(simPid) };
  console.log(`idle CPU: beekeeper ${idle.beekeeper.toFixed(0)} ms/s, simulator ${idle.simulator.toFixed(0)} ms/s`);
  for (const c of cases.filter((x) => !ONLY || ONLY.includes(x.key))) {
    const s: Array<LoadResult & { serverCpuMs: number }> = [];
    const b: Array<LoadResult & { serverCpuMs: number }> = [];
    // Each server is measured warm: one untimed pass over every path first, as a server that has been up a while
    // (Beekeeper builds a cluster's answer on its first read and keeps it until the cluster changes, the API server
    // serialises an object once when it is written; both JIT-compile their paths).
    await load(address, c.subject, undefined, true);
    await load(hub.url, c.base, auth, true);
    for (let r = 0; r < ROUNDS; r++) {
      s.push(await withCpu(api.pid, idle.beekeeper, () => load(address, c.subject)));
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
  await api?.stop();
  await host.close();
  rmSync(tmp, { recursive: true, force: true });
  await deleteKeys(prefix);
}
report(rows);
