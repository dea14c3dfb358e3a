// GET /v1/clusters served from the informer cache: 10,000 ClusterDeployments on a simulated hub, the gateway
// synced, then the first page of 500 and a walk over every page. Baseline: a bare Fastify route answering the same
// page objects from memory, so the ratio is what filtering, summarising, sorting and paging the cache cost on top of
// Fastify's own routing and JSON serialisation. Both go through app.inject (no sockets), alternated, median of 9.
// Run: npx tsx --expose-gc bench/rest-list.ts [count]
import Fastify from 'fastify';
import { adoptMany, HUB, median, report, row, startBed, timed, until } from './support.js';

const COUNT = Number(process.argv[2] ?? process.env.BENCH_LIST_COUNT ?? 10_000);
const LIMIT = 500;
const ROUNDS = 9;

// Hive's controllers are off: the bench reads the cache, nobody needs to reconcile 10,000 clusters meanwhile.
const bed = await startBed({ sim: { controllers: false } });
try {
  const [createMs] = await timed(() => adoptMany(bed.client, 'bench-list', COUNT, { kubeconfigs: false }));
  const [syncMs] = await timed(() =>
    until(
      'the informer cache to hold every cluster',
      () => bed.system.store.cachedList('ClusterDeployment', { hub: HUB }).length >= COUNT,
    ),
  );
  const app = bed.system.app;
  await app.ready();

  const get = async (url: string, on = app) => {
    const res = await on.inject({ method: 'GET', url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json<{ items: unknown[]; nextCursor?: string; total: number }>();
  };
  const walk = async (on: typeof app, path: string) => {
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await get(`${path}?limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`, on);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    return pages;
  };

  // The baseline serves exactly what the API answered, page by page, from memory.
  const pages: Array<{ items: unknown[]; nextCursor?: string; total: number }> = [];
  let cursor: string | undefined;
  do {
    const page = await get(`/v1/clusters?limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  if (pages[0]!.total !== COUNT) throw new Error(`expected ${COUNT} clusters, the API reports ${pages[0]!.total}`);
  const byCursor = new Map(pages.map((p, i) => [i === 0 ? '' : pages[i - 1]!.nextCursor!, p]));
  const bare = Fastify({ logger: false });
  bare.get<{ Querystring: { cursor?: string } }>('/bare', async (req) => byCursor.get(req.query.cursor ?? '')!);
  await bare.ready();

  const s = { first: [] as number[], baseFirst: [] as number[], walk: [] as number[], baseWalk: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    s.first.push((await timed(() => get(`/v1/clusters?limit=${LIMIT}`)))[0]);
    s.baseFirst.push((await timed(() => get(`/bare?limit=${LIMIT}`, bare)))[0]);
    s.walk.push((await timed(() => walk(app, '/v1/clusters')))[0]);
    s.baseWalk.push((await timed(() => walk(bare, '/bare')))[0]);
  }
  await bare.close();
  console.log(
    `REST list: ${COUNT} ClusterDeployments created in ${(createMs / 1000).toFixed(1)} s, cache synced ${syncMs.toFixed(0)} ms later; ${pages.length} pages of ${LIMIT}`,
  );
  report([
    row(
      'rest-list',
      `GET /v1/clusters?limit=${LIMIT} (of ${COUNT})`,
      median(s.first),
      median(s.baseFirst),
      'ms',
      'vs bare Fastify route, same page',
    ),
    row(
      'rest-list',
      `all ${pages.length} pages of ${LIMIT}`,
      median(s.walk),
      median(s.baseWalk),
      'ms',
      'vs bare Fastify route, same pages',
    ),
  ]);
} finally {
  await bed.close();
}
