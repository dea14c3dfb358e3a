// Scale of the API server double: 10,000 ClusterDeployments in one hub, a full and a paged LIST, and 50 watchers
// receiving 1,000 updates. Each figure is printed raw and as a ratio against a baseline measured in the same run:
// a bare node:http server sending the same pre-serialised bytes over the same number of requests (the floor any
// server pays for HTTP); for the watch figure the baseline also takes 1,000 PATCH requests and writes each event
// line to every watcher.
// Run: npx tsx bench/sim-list-watch.ts [count]
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApiServer } from '../src/sim/apiserver/index.js';
import { hiveCrds } from '../src/sim/crds/index.js';

const COUNT = Number(process.argv[2] ?? 10_000);
const PAGE = 500;
const WATCHERS = 50;
const UPDATES = 1_000;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(
  url: string,
  method = 'GET',
  token?: string,
  body?: string,
  contentType = 'application/json',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode! < 300
          ? resolve(Buffer.concat(chunks).toString())
          : reject(new Error(`${res.statusCode} ${Buffer.concat(chunks).toString()}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await fn();
  return [performance.now() - start, result];
}

/** Opens a watch and resolves when `expected` event lines arrived. */
function watcher(
  url: string,
  token: string | undefined,
  expected: number,
): { ready: Promise<void>; done: Promise<void>; close(): void } {
  let close = () => {};
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  const done = new Promise<void>((resolve, reject) => {
    const req = request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      ready();
      let seen = 0;
      res.on('data', (c: Buffer) => {
        for (const b of c) if (b === 10) seen++;
        if (seen >= expected) resolve();
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => (seen(e) ? reject(e) : undefined));
    req.end();
    close = () => req.destroy();
  });
  function seen(e: Error) {
    return !String(e.message).includes('socket hang up') && !String(e.message).includes('aborted');
  }
  return { ready: readyP, done, close };
}

function cdBody(i: number) {
  const name = `cd-${String(i).padStart(5, '0')}`;
  return JSON.stringify({
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: { name, namespace: 'bench', labels: { pool: `p${i % 10}` } },
    spec: {
      baseDomain: 'example.com',
      clusterName: name,
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws' } } },
      pullSecretRef: { name: 'pull' },
      provisioning: {
        installConfigSecretRef: { name: 'ic' },
        releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64',
      },
    },
  });
}

/** The baseline: a bare node:http server answering with pre-serialised bytes; PATCH /event/<i> writes line i to every watch. */
async function startBaseline(
  routes: Map<string, Buffer>,
  watchLines: Buffer[],
): Promise<{ url: string; server: Server; watchLines: Buffer[] }> {
  const streams: Array<import('node:http').ServerResponse> = [];
  const server = createServer((req, res) => {
    if (req.url?.includes('watch=true')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      streams.push(res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = /^\/event\/(\d+)$/.exec(req.url ?? '');
      let body = routes.get(req.url ?? '') ?? Buffer.from('{}');
      if (event) {
        const line = watchLines[Number(event[1])]!;
        for (const s of streams) s.write(line);
        body = line;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, watchLines };
}

const sim = await startApiServer({ crds: hiveCrds(), watchHistory: 20_000 });
const base = `${sim.url}/apis/hive.openshift.io/v1/namespaces/bench/clusterdeployments`;
await call(`${sim.url}/api/v1/namespaces`, 'POST', sim.token, JSON.stringify({ metadata: { name: 'bench' } }));

const [createMs] = await time(async () => {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < COUNT) await call(base, 'POST', sim.token, cdBody(next++));
    }),
  );
});

// Collect the bytes the baseline will serve (the full list and every page), then time both servers alternately
// (median of 7 each), so load from other processes hits both sides alike.
const fullBody = await call(base, 'GET', sim.token);
const list = fullBody;
const items = JSON.parse(list).items.length;
const pagedList = async (url: string, pageUrl?: (i: number) => string) => {
  const out: string[] = [];
  let token = '';
  do {
    const page = await call(
      pageUrl ? pageUrl(out.length) : `${url}?limit=${PAGE}${token ? `&continue=${token}` : ''}`,
      'GET',
      sim.token,
    );
    out.push(page);
    token = /"continue":"([^"]*)"/.exec(page.slice(-400))![1]!;
  } while (token);
  return out;
};
const pages = await pagedList(base);
const routes = new Map<string, Buffer>([
  ['/full', Buffer.from(fullBody)],
  ...pages.map((p, i) => [`/page/${i}`, Buffer.from(p)] as [string, Buffer]),
]);
const baseline = await startBaseline(routes, []);
const samples = { list: [] as number[], baseList: [] as number[], paged: [] as number[], basePaged: [] as number[] };
for (let i = 0; i < 7; i++) {
  samples.list.push((await time(() => call(base, 'GET', sim.token)))[0]);
  samples.baseList.push((await time(() => call(`${baseline.url}/full`)))[0]);
  samples.paged.push((await time(() => pagedList(base)))[0]);
  samples.basePaged.push((await time(() => pagedList(base, (n) => `${baseline.url}/page/${n}`)))[0]);
}
const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [listMs, baseListMs, pagedMs, basePagedMs] = [
  mid(samples.list),
  mid(samples.baseList),
  mid(samples.paged),
  mid(samples.basePaged),
];

// Watch fan-out: 50 watchers from "now", 1,000 merge patches (8 in flight).
const watchers = Array.from({ length: WATCHERS }, () =>
  watcher(`${base}?watch=true&resourceVersion=${JSON.parse(list).metadata.resourceVersion}`, sim.token, UPDATES),
);
await Promise.all(watchers.map((w) => w.ready));
const watchLines: Buffer[] = [];
const [watchMs] = await time(async () => {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < UPDATES) {
        const i = next++;
        const out = await call(
          `${base}/cd-${String(i % COUNT).padStart(5, '0')}`,
          'PATCH',
          sim.token,
          JSON.stringify({ metadata: { labels: { round: String(i) } } }),
          'application/merge-patch+json',
        );
        watchLines.push(Buffer.from(`{"type":"MODIFIED","object":${out}}\n`));
      }
    }),
  );
  await Promise.all(watchers.map((w) => w.done));
});
watchers.forEach((w) => w.close());

// Baseline watch: the same event lines, written by the bare server as it receives 1,000 PATCH requests.
baseline.watchLines.push(...watchLines);
const baseWatchers = Array.from({ length: WATCHERS }, () => watcher(`${baseline.url}/?watch=true`, undefined, UPDATES));
await Promise.all(baseWatchers.map((w) => w.ready));
const [baseWatchMs] = await time(async () => {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < UPDATES)
        await call(
          `${baseline.url}/event/${next++}`,
          'PATCH',
          undefined,
          '{"metadata":{}}',
          'application/merge-patch+json',
        );
    }),
  );
  await Promise.all(baseWatchers.map((w) => w.done));
});
baseWatchers.forEach((w) => w.close());

const row = (label: string, ms: number, baseMs: number, extra = '') =>
  console.log(
    `${label.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms   baseline ${baseMs.toFixed(1).padStart(8)} ms   ratio ${(ms / baseMs).toFixed(2).padStart(6)}x ${extra}`,
  );
console.log(
  `API server double: ${COUNT} ClusterDeployments (${(fullBody.length / 1e6).toFixed(1)} MB list), ${WATCHERS} watchers x ${UPDATES} updates`,
);
console.log(
  `create ${COUNT} (32 in flight)              ${createMs.toFixed(0).padStart(9)} ms   ${(COUNT / (createMs / 1000)).toFixed(0)} creates/s`,
);
row(`full LIST (${items} items)`, listMs, baseListMs);
row(`paged LIST (${pages.length} pages of ${PAGE})`, pagedMs, basePagedMs);
row(`1,000 PATCHes fanned out to ${WATCHERS} watchers`, watchMs, baseWatchMs);
await new Promise<void>((r) => baseline.server.close(() => r()));
baseline.server.closeAllConnections();
await sim.close();
agent.destroy();
