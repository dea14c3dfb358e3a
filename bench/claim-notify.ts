// Claim notification (issue 14, benchmark 3): how soon a waiting client learns that its claimed cluster runs. The
// claims harness of the test suite (test/claims/support.ts: Beekeeper's claims API, jobs and informers on a
// simulated pair of hubs at 2000x, in this process) with a pool of hibernated clusters; claims are made one at a
// time, and for each one the bench watches, all opened before the claim is created:
//  - t0: a raw watch on ClusterDeployments sees the claimed cluster's status.powerState turn Running (the simulator
//    marking it running);
//  - long poll: `GET /v1/claims/{id}?wait=60` answers with phase Running;
//  - SSE: `GET /v1/claims/{id}/events` sends a `claim` event with phase Running;
//  - baseline: a raw watch on the ClusterClaim sees its ClusterRunning condition True.
// Figures: p50 and p99 of (seen - t0), ms, over CLAIMS claims. Ratio = client / raw claim watch.
// Not here: the CLI's `claim --wait` (it creates its own claim, so t0 is not shared; it rides the long poll).
// Run: npx tsx bench/claim-notify.ts [claims]
import { request } from 'undici';
import { poolRequest, startClaimsHarness } from '../test/claims/support.js';
import { report, row, until, type Row } from './support.js';

const CLAIMS = Number(process.argv[2] ?? 20);
const h = await startClaimsHarness();
const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
const hub = h.sim.hubs[0]!;
const lat: Record<'lp' | 'sse' | 'watch', number[]> = { lp: [], sse: [], watch: [] };

/** Lines of a streaming response, until `pick` returns a value (then the stream is dropped). */
async function firstLine<T>(url: string, headers: Record<string, string>, pick: (line: string) => T | undefined) {
  const ac = new AbortController();
  const res = await request(url, { headers, signal: ac.signal });
  return {
    seen: (async () => {
      let buf = '';
      try {
        for await (const chunk of res.body) {
          buf += (chunk as Buffer).toString();
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (pick(line) !== undefined) {
              const at = performance.now();
              ac.abort();
              return at;
            }
          }
        }
      } catch (err) {
        if (!ac.signal.aborted) throw err;
      }
      throw new Error(`${url}: ended before it was seen`);
    })(),
  };
}

const rvOf = async (path: string) => {
  const res = await request(`${hub.url}${path}?limit=1`, { headers: { authorization: `Bearer ${hub.token}` } });
  return ((await res.body.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
};

try {
  await h.prerequisites();
  const created = await h.app.inject({
    method: 'POST',
    url: '/v1/pools',
    payload: poolRequest('hub-1', 'notify', { size: CLAIMS, runningCount: 0 }),
  });
  if (created.statusCode !== 201) throw new Error(`pool: ${created.statusCode} ${created.body}`);
  await until(
    `${CLAIMS} hibernated clusters in the pool`,
    async () => {
      const p = await h.app.inject({ method: 'GET', url: '/v1/pools/hub-1/ci/notify' });
      return (p.json<{ counts?: { standby?: number } }>().counts?.standby ?? 0) >= CLAIMS;
    },
    300_000,
  );
  const auth = { authorization: `Bearer ${hub.token}` };
  for (let i = 0; i < CLAIMS; i++) {
    const name = `notify-${i}`;
    const cdPath = '/apis/hive.openshift.io/v1/clusterdeployments';
    const claimPath = '/apis/hive.openshift.io/v1/namespaces/ci/clusterclaims';
    const cdWatch = await firstLine(
      `${hub.url}${cdPath}?watch=true&resourceVersion=${await rvOf(cdPath)}`,
      auth,
      (l) => {
        const ev = JSON.parse(l) as {
          object: { spec?: { clusterPoolRef?: { claimName?: string } }; status?: { powerState?: string } };
        };
        return ev.object.spec?.clusterPoolRef?.claimName === name && ev.object.status?.powerState === 'Running'
          ? true
          : undefined;
      },
    );
    const claimWatch = await firstLine(
      `${hub.url}${claimPath}?watch=true&resourceVersion=${await rvOf(claimPath)}`,
      auth,
      (l) => {
        const ev = JSON.parse(l) as {
          object: { metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } };
        };
        return ev.object.metadata.name === name &&
          ev.object.status?.conditions?.some((c) => c.type === 'ClusterRunning' && c.status === 'True')
          ? true
          : undefined;
      },
    );
    const res = await h.app.inject({ method: 'POST', url: '/v1/claims', payload: { pool: 'hub-1/ci/notify', name } });
    if (res.statusCode !== 201 && res.statusCode !== 202) throw new Error(`claim: ${res.statusCode} ${res.body}`);
    const id = `hub-1/ci/${name}`;
    const sse = await firstLine(`${base}/v1/claims/${id}/events`, {}, (l) =>
      l.startsWith('data:') && (JSON.parse(l.slice(5)) as { phase?: string }).phase === 'Running' ? true : undefined,
    );
    const lp = (async () => {
      for (;;) {
        const r = await request(`${base}/v1/claims/${id}?wait=60`);
        const body = (await r.body.json()) as { phase?: string };
        if (body.phase === 'Running') return performance.now();
      }
    })();
    const [t0, tw, ts, tl] = await Promise.all([cdWatch.seen, claimWatch.seen, sse.seen, lp]);
    lat.watch.push(tw - t0);
    lat.sse.push(ts - t0);
    lat.lp.push(tl - t0);
  }
} finally {
  await h.close();
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
console.log(
  `claim notify (${CLAIMS} claims), ms after the cluster runs: watch ${lat.watch.map((x) => x.toFixed(0)).join(' ')}; long poll ${lat.lp.map((x) => x.toFixed(0)).join(' ')}; SSE ${lat.sse.map((x) => x.toFixed(0)).join(' ')}`,
);
const rows: Row[] = [];
for (const [k, label] of [
  ['lp', 'long poll ?wait='],
  ['sse', 'SSE /events'],
] as const)
  for (const p of [0.5, 0.99])
    rows.push(
      row(
        'claim-notify',
        `${label}: cluster Running -> client sees it, p${p * 100}`,
        pct(lat[k], p),
        pct(lat.watch, p),
        'ms',
        p === 0.5 ? 'vs a raw watch on the ClusterClaim' : undefined,
      ),
    );
report(rows);
process.exit(0);
