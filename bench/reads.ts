// Reads over real HTTP (issue 14, benchmark 2). N ClusterDeployments (labelled team=t0..t9, so a filter matches a
// tenth) on a simulated hub in its own process, Hive's controllers off; Beekeeper's api (+ worker) in this process,
// listening on loopback. A closed-loop client of 16 connections in a child process (bench/http-load.ts) sends, for
// DURATION each:
//  - GET /v1/clusters?labelSelector=team=tK&limit=100 (and limit=1000): the first page of a filtered list, K cycling;
//  - GET /v1/clusters/{hub}/{ns}/{name}: single gets cycling over every cluster;
// Baseline, alternated with each: the same question asked of the API server itself, one LIST (or GET) per request
// with the same label selector and limit, i.e. what a client without Beekeeper's cache would do. Figures: requests/s
// (ratio = rate / baseline rate: below 1 means the cache answers slower than the API server), p50 and p99.
// Run: npx tsx --expose-gc bench/reads.ts [clusters] [seconds]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { adoptMany, HUB, median, report, row, startBed, until, type Row } from './support.js';

const COUNT = Number(process.argv[2] ?? 10_000);
const SECONDS = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.env.READS_ROUNDS ?? 2);
const CONNECTIONS = 16;
const NS = 'bench-reads';

interface LoadResult {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  durationMs: number;
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
      name: `filtered list, 100 per page (of ${per * 10})`,
      subject: teams.map((t) => `/v1/clusters?labelSelector=team%3D${t}&limit=100`),
      base: teams.map((t) => `/apis/hive.openshift.io/v1/clusterdeployments?labelSelector=team%3D${t}&limit=100`),
    },
    {
      name: `filtered list, 1000 per page (of ${per * 10})`,
      subject: teams.map((t) => `/v1/clusters?labelSelector=team%3D${t}&limit=1000`),
      base: teams.map((t) => `/apis/hive.openshift.io/v1/clusterdeployments?labelSelector=team%3D${t}&limit=1000`),
    },
    {
      name: `single get (of ${per * 10})`,
      subject: names.map((n) => `/v1/clusters/${HUB}/${n}`),
      base: names.map((n) => {
        const [ns, name] = n.split('/');
        return `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments/${name}`;
      }),
    },
  ];
  for (const c of cases) {
    const s: LoadResult[] = [];
    const b: LoadResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      s.push(await load(address, c.subject));
      b.push(await load(hub.url, c.base, auth));
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
    );
  }
} finally {
  await bed.close();
}
report(rows);
