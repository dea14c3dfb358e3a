// Memory of the roles (issue 14, benchmark 5): N ClusterDeployments on a simulated hub (its own process, Hive's
// controllers off so nothing changes under the caches), then the api role and the worker role each started as its
// own OS process as production runs them: `npm run build`, then `node dist/main/<role>.js` (the image's command).
// Figure: RSS (/proc/<pid>/status VmRSS) once the api lists all N clusters and the worker's RSS has been flat for 5 s.
// Baseline: a bare Node process (same runtime, no loader) that LISTs the same N ClusterDeployments from the API server
// and keeps the parsed JSON; its RSS before the LIST (empty) is subtracted from every figure to give bytes per cluster
// (an upper bound for the roles: their fixed cost is counted too). Ratio = role RSS / bare RSS.
// MEMORY_CHURN_MINUTES=10 (full runs): also RSS after that many minutes of churn with both roles up, a compressed
// version of the "after an hour of work".
// The roles and the baseline run with the image's NODE_OPTIONS (the Dockerfile's runtime ENV: its V8 heap cap decides
// how much garbage a role carries between full GCs); MEMORY_NODE_OPTIONS replaces them to compare flags
// (MEMORY_NODE_OPTIONS=--enable-source-maps: V8's own default heap, as before the cap).
// MEMORY_RUNTIME=tsx: the roles from src/ under tsx and the baseline under tsx too (`npm run start:<role>`, the
// figures before issue 14 measured this way; tsx alone costs ~40 MB per process).
// Run: npx tsx bench/memory.ts [clusters]
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKubeClient, R } from '../src/sim/client/index.js';
import { buildOnce, IMAGE_NODE_OPTIONS, prepareHubForRoles, startRole, stopChild } from './role-process.js';
import { adoptMany, deleteKeys, HUB, REDIS_URL, report, row, startSimHost, until, type Row } from './support.js';

const COUNT = Number(process.argv[2] ?? 10_000);
const NS = 'bench-memory';
const CHURN_MINUTES = Number(process.env.MEMORY_CHURN_MINUTES ?? 0);
const UNDER_TSX = process.env.MEMORY_RUNTIME === 'tsx';
const RUNTIME = UNDER_TSX ? 'tsx' : 'node';
const NODE_OPTIONS = process.env.MEMORY_NODE_OPTIONS ?? IMAGE_NODE_OPTIONS;
console.log(`memory: roles and baseline run with NODE_OPTIONS="${NODE_OPTIONS}"`);
if (!UNDER_TSX) buildOnce();

const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
};
/** The V8 heap as the role's own /metrics tells it (used / total, MiB): RSS growth that is garbage shows here. */
async function heapOf(base: string): Promise<string> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const mib = (name: string) => {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return m ? (Number(m[1]) / 1024 / 1024).toFixed(0) : '?';
  };
  return `heap ${mib('nodejs_heap_size_used_bytes')}/${mib('nodejs_heap_size_total_bytes')} MiB, external ${mib('nodejs_external_memory_bytes')} MiB`;
}
/** RSS once flat (within 1%) for 5 s; `orLast`: after 2 min the last value rather than an error (an hour's run kept). */
async function flatRss(pid: number, what: string, orLast = false): Promise<number> {
  let last = rssOf(pid);
  let flatFor = 0;
  const end = Date.now() + 120_000;
  while (flatFor < 5) {
    if (Date.now() > end) {
      if (!orLast) throw new Error(`${what}: RSS never settled`);
      console.log(`${what}: RSS not flat for 5 s within 2 min; the last value taken`);
      return last;
    }
    await new Promise((r) => setTimeout(r, 1000));
    const now = rssOf(pid);
    flatFor = Math.abs(now - last) < last * 0.01 ? flatFor + 1 : 0;
    last = now;
  }
  return last;
}
const stop = stopChild;

const host = await startSimHost({ hubNames: [HUB], speed: 1000, controllers: false }, Date.now());
const tmp = mkdtempSync(join(tmpdir(), 'bk-bench-memory-'));
const prefix = `{bk-bench-${randomUUID().slice(0, 8)}}`;
const procs: ChildProcess[] = [];
const rows: Row[] = [];
try {
  const client = createKubeClient({ server: host.url, token: host.token, insecureSkipTLSVerify: true });
  await adoptMany(client, NS, COUNT, { kubeconfigs: false, labels: { team: 'bench' } });
  const hubs = await prepareHubForRoles(host.kubeconfig, tmp, prefix);

  // The bare baseline: parsed JSON of the same LIST, held.
  const bare = fork(fileURLToPath(new URL('./memory-bare.js', import.meta.url)), [], {
    execArgv: [...(UNDER_TSX ? ['--import', 'tsx'] : []), '--expose-gc'],
    env: { ...process.env, NODE_OPTIONS },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  procs.push(bare);
  const bareRss = await new Promise<{ empty: number; holding: number; items: number }>((resolve, reject) => {
    bare.once('message', (m) => resolve(m as { empty: number; holding: number; items: number }));
    bare.once('exit', (c) => reject(new Error(`bare process exited ${c}`)));
    bare.send({ url: `${host.url}/apis/hive.openshift.io/v1/clusterdeployments`, token: host.token });
  });
  if (bareRss.items !== COUNT) throw new Error(`bare process holds ${bareRss.items} of ${COUNT}`);
  await stop(bare);

  const role = async (name: 'api' | 'worker') => {
    const r = await startRole(name, {
      hubs,
      redisUrl: REDIS_URL,
      redisPrefix: prefix,
      runtime: RUNTIME,
      nodeOptions: NODE_OPTIONS,
    });
    procs.push(r.process);
    return { p: r.process, base: r.base };
  };
  const api = await role('api');
  await until(
    'the api role lists every cluster',
    async () => {
      try {
        const res = await fetch(`${api.base}/v1/clusters?limit=1`);
        return res.ok && ((await res.json()) as { total: number }).total === COUNT;
      } catch {
        return false;
      }
    },
    300_000,
  );
  const apiRss = await flatRss(api.p.pid!, 'api');
  if (CHURN_MINUTES === 0) await stop(api.p);
  const worker = await role('worker');
  await until(
    'the worker role is ready',
    async () => {
      try {
        return (await fetch(`${worker.base}/readyz`)).ok;
      } catch {
        return false;
      }
    },
    300_000,
  );
  const workerRss = await flatRss(worker.p.pid!, 'worker');
  const MiB = 1024 * 1024;
  if (CHURN_MINUTES > 0) {
    // A compressed "after an hour of work": both roles up, for CHURN_MINUTES every cluster's labels change in turn
    // (50 updates/s, each one an informer event in both roles) while the api answers 10 list requests/s.
    const end = Date.now() + CHURN_MINUTES * 60_000;
    let k = 0;
    // A sample a minute shows growth (or its absence) along the way, not only at the end.
    let sampleAt = Date.now() + 60_000;
    const samples = { api: [] as number[], worker: [] as number[] };
    while (Date.now() < end) {
      const tick = Date.now();
      if (tick >= sampleAt) {
        sampleAt += 60_000;
        const minute = Math.round((tick - (end - CHURN_MINUTES * 60_000)) / 60_000);
        const [apiHeap, workerHeap] = await Promise.all([heapOf(api.base), heapOf(worker.base)]);
        samples.api.push(rssOf(api.p.pid!) / MiB);
        samples.worker.push(rssOf(worker.p.pid!) / MiB);
        console.log(
          `churn minute ${minute}: api ${samples.api.at(-1)!.toFixed(0)} MiB (${apiHeap}), ` +
            `worker ${samples.worker.at(-1)!.toFixed(0)} MiB (${workerHeap})`,
        );
      }
      await Promise.all([
        ...Array.from({ length: 50 }, () => {
          const i = k++ % COUNT;
          return client.mergePatch(R.clusterDeployment, NS, `cd-${String(i).padStart(5, '0')}`, {
            metadata: { labels: { churn: String(k) } },
          });
        }),
        ...Array.from({ length: 10 }, async () => {
          const res = await fetch(`${api.base}/v1/clusters?limit=100&labelSelector=team%3Dbench`);
          await res.arrayBuffer();
        }),
      ]);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))));
    }
    const [apiAfter, workerAfter] = await Promise.all([
      flatRss(api.p.pid!, 'api', true),
      flatRss(worker.p.pid!, 'worker', true),
    ]);
    console.log(
      `after ${CHURN_MINUTES} min of churn (${k} label updates): api ${(apiAfter / MiB).toFixed(0)} MiB, worker ${(workerAfter / MiB).toFixed(0)} MiB`,
    );
    const perMinute = (mib: number[]) =>
      mib.length === 0
        ? ''
        : `; RSS per minute: first ${mib[0]!.toFixed(0)}, max ${Math.max(...mib).toFixed(0)}, last ${mib.at(-1)!.toFixed(0)} MiB`;
    const note = `${CHURN_MINUTES} min: 50 label updates/s + 10 lists/s; vs the same role fresh; NODE_OPTIONS "${NODE_OPTIONS}"`;
    rows.push(
      row(
        'memory',
        `api role RSS after ${CHURN_MINUTES} min churn (${COUNT})`,
        apiAfter / MiB,
        apiRss / MiB,
        'MiB',
        note + perMinute(samples.api),
      ),
      row(
        'memory',
        `worker role RSS after ${CHURN_MINUTES} min churn (${COUNT})`,
        workerAfter / MiB,
        workerRss / MiB,
        'MiB',
        note + perMinute(samples.worker),
      ),
    );
    await stop(api.p);
  }
  await stop(worker.p);

  const perCluster = (rss: number) => (rss - bareRss.empty) / COUNT / 1024;
  console.log(
    `memory (${COUNT} clusters): api ${(apiRss / MiB).toFixed(0)} MiB, worker ${(workerRss / MiB).toFixed(0)} MiB, ` +
      `bare process ${(bareRss.empty / MiB).toFixed(0)} MiB empty, ${(bareRss.holding / MiB).toFixed(0)} MiB holding the LIST`,
  );
  const note = `vs a bare ${RUNTIME} process holding the same LIST parsed; NODE_OPTIONS "${NODE_OPTIONS}"`;
  rows.push(
    row('memory', `api role RSS, fresh (${COUNT} clusters)`, apiRss / MiB, bareRss.holding / MiB, 'MiB', note),
    row('memory', `worker role RSS, fresh (${COUNT} clusters)`, workerRss / MiB, bareRss.holding / MiB, 'MiB', note),
    row(
      'memory',
      `api role per cluster (${COUNT})`,
      perCluster(apiRss),
      perCluster(bareRss.holding),
      'KiB',
      `RSS minus an empty ${RUNTIME} process, / N: an upper bound`,
    ),
    row('memory', `worker role per cluster (${COUNT})`, perCluster(workerRss), perCluster(bareRss.holding), 'KiB'),
  );
  // For bench/run.ts's growth rows: RSS above an empty process (same runtime), at each size.
  for (const [name, rss] of [
    ['api', apiRss],
    ['worker', workerRss],
  ] as const)
    rows.push({
      ...row(
        'memory',
        `${name} RSS above an empty process (${COUNT})`,
        (rss - bareRss.empty) / MiB,
        (bareRss.holding - bareRss.empty) / MiB,
        'MiB',
      ),
      key: `${name} role RSS above an empty process`,
      n: COUNT,
    });
} finally {
  await Promise.all(procs.map(stop));
  await host.close();
  rmSync(tmp, { recursive: true, force: true });
  await deleteKeys(prefix);
}
report(rows);
