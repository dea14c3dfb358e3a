// Claim notification (issue 14, benchmark 3): how soon a waiting client learns that its claimed cluster runs. The
// claims harness of the test suite (test/claims/support.ts: Beekeeper's claims API, jobs and informers on a
// simulated pair of hubs at 2000x, in this process) with a pool of hibernated clusters; claims are made one at a
// time, and for each one the bench watches, all opened before the claim is created:
//  - t0: a raw watch on ClusterDeployments sees the claimed cluster's status.powerState turn Running (the simulator
//    marking it running);
//  - long poll: `GET /v1/claims/{id}?wait=60` answers with phase Running;
//  - SSE: `GET /v1/claims/{id}/events` sends a `claim` event with phase Running;
//  - baseline: a raw watch on the ClusterClaim sees its ClusterRunning condition True.
// Then as many claims made by the CLI, `beekeeper claim --pool … --name N --wait 10m --json` (runCli in this
// process, as the tests run it: the CLI's own wait, SSE with its long-poll fallback, not its process start-up,
// which happens before the claim exists): t0 as above (the watches open before the CLI creates its claim), seen
// when the CLI prints the claim (stdout). Same baseline, over its own claims.
// Figures: p50 and p99 of (seen - t0), ms, over CLAIMS claims each. Ratio = client / raw claim watch.
// Run: npx tsx bench/claim-notify.ts [claims]
import { request } from 'undici';
import { runCli } from '../src/cli/run.js';
import { poolRequest, startClaimsHarness } from '../test/claims/support.js';
import { report, row, until, type Row } from './support.js';

const CLAIMS = Number(process.argv[2] ?? 20);
const h = await startClaimsHarness();
const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
const hub = h.sim.hubs[0]!;
const lat: Record<'lp' | 'sse' | 'watch' | 'cli' | 'cliWatch', number[]> = {
  lp: [],
  sse: [],
  watch: [],
  cli: [],
  cliWatch: [],
};

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

const auth = { authorization: `Bearer ${hub.token}` };
/**
 * Opened before the claim `name` exists: a raw watch on ClusterDeployments (t0: its cluster's status.powerState
 * turns Running) and one on ClusterClaims (the baseline: ClusterRunning True).
 */
async function rawWatches(name: string) {
  const cdPath = '/apis/hive.openshift.io/v1/clusterdeployments';
  const claimPath = '/apis/hive.openshift.io/v1/namespaces/ci/clusterclaims';
  const cdRunning = await firstLine(
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
  const claimRunning = await firstLine(
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
  return { cdRunning, claimRunning };
}

try {
  await h.prerequisites();
  const created = await h.app.inject({
    method: 'POST',
    url: '/v1/pools',
    payload: poolRequest('hub-1', 'notify', { size: 2 * CLAIMS, runningCount: 0 }),
  });
  if (created.statusCode !== 201) throw new Error(`pool: ${created.statusCode} ${created.body}`);
  await until(
    `${2 * CLAIMS} hibernated clusters in the pool`,
    async () => {
      const p = await h.app.inject({ method: 'GET', url: '/v1/pools/hub-1/ci/notify' });
      return (p.json<{ counts?: { standby?: number } }>().counts?.standby ?? 0) >= 2 * CLAIMS;
    },
    300_000,
  );
  for (let i = 0; i < CLAIMS; i++) {
    const name = `notify-${i}`;
    const w = await rawWatches(name);
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
    const [t0, tw, ts, tl] = await Promise.all([w.cdRunning.seen, w.claimRunning.seen, sse.seen, lp]);
    lat.watch.push(tw - t0);
    lat.sse.push(ts - t0);
    lat.lp.push(tl - t0);
  }
  for (let i = 0; i < CLAIMS; i++) {
    const name = `notify-cli-${i}`;
    const w = await rawWatches(name);
    let printed: number | undefined;
    const err: string[] = [];
    const code = await runCli(
      ['--url', base, '--json', 'claim', '--pool', 'hub-1/ci/notify', '--name', name, '--wait', '10m'],
      {
        env: {},
        out: () => (printed ??= performance.now()),
        err: (t) => err.push(t),
        writeSecretFile: async () => undefined,
        signal: new AbortController().signal,
      },
    );
    if (code !== 0 || printed === undefined) throw new Error(`beekeeper claim: exit ${code}: ${err.join(' | ')}`);
    const [t0, tw] = await Promise.all([w.cdRunning.seen, w.claimRunning.seen]);
    lat.cliWatch.push(tw - t0);
    lat.cli.push(printed - t0);
  }
} finally {
  await h.close();
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
console.log(
  `claim notify (${CLAIMS} claims each), ms after the cluster runs: ${Object.entries(lat)
    .map(([k, xs]) => `${k} ${xs.map((x) => x.toFixed(0)).join(' ')}`)
    .join('; ')}`,
);
const rows: Row[] = [];
for (const [k, label, baseline] of [
  ['lp', 'long poll ?wait=', 'watch'],
  ['sse', 'SSE /events', 'watch'],
  ['cli', 'CLI claim --wait', 'cliWatch'],
] as const)
  for (const p of [0.5, 0.99])
    rows.push(
      row(
        'claim-notify',
        `${label}: cluster Running -> client sees it, p${p * 100}`,
        pct(lat[k], p),
        pct(lat[baseline], p),
        'ms',
        p === 0.5 ? 'vs a raw watch on the ClusterClaim' : undefined,
      ),
    );
report(rows);
process.exit(0);
