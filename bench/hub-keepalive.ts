// Connection reuse per hub (issue 14, lane hubio): merge PATCHes through the gateway to a TLS simulator hub, one at
// a time and 32 at once, against the transport the gateway had before: client-node 1.4's applyToFetchOptions agent,
// a new one per request without keep-alive (a TCP + TLS handshake each). Rounds alternate; medians; the ratio is
// subject / baseline patches per second, with the TLS connections the hub accepted.
//   npx tsx bench/hub-keepalive.ts [patches per round]
import { KubeConfig } from '@kubernetes/client-node';
import fetch, { Headers } from 'node-fetch';
import { stringify as toYaml } from 'yaml';
import { systemClock } from '../src/clock.js';
import { createKubeGateway } from '../src/kube/gateway.js';
import { startApiServer } from '../src/sim/apiserver/index.js';

const N = Number(process.argv[2] ?? 1000);
const ROUNDS = 3;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const sim = await startApiServer({ tls: true });
const kubeconfigData = toYaml(sim.kubeconfig('bench'));
const gateway = await createKubeGateway({
  hubs: [{ name: 'bench', kubeconfigData }],
  log: quiet,
  clock: systemClock,
  cachedKinds: [],
});
const kc = new KubeConfig();
kc.loadFromString(kubeconfigData);
const body = (i: number) => JSON.stringify({ metadata: { labels: { i: String(i) } } });

const subject = (i: number) =>
  gateway.mergePatch('Namespace', { hub: 'bench', name: 'default' }, { metadata: { labels: { i: String(i) } } });
// What src/kube/rest-client.ts did before: the agent applyToFetchOptions makes, per request.
async function baseline(i: number) {
  const init = await kc.applyToFetchOptions({});
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/merge-patch+json');
  const res = await fetch(`${sim.url}/api/v1/namespaces/default`, {
    method: 'PATCH',
    headers,
    agent: init.agent,
    body: body(i),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  await res.text();
}

async function measure(patch: (i: number) => Promise<unknown>, concurrency: number) {
  const c0 = sim.connectionCount();
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < N) await patch(next++);
    }),
  );
  return { perSecond: (N / (performance.now() - t)) * 1000, connections: sim.connectionCount() - c0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (let i = 0; i < 20; i++) await subject(i); // warm-up: the subject's connection is open before it is timed
const rows = [];
for (const concurrency of [1, 32]) {
  const runs = { subject: [] as number[], baseline: [] as number[], subjectConn: 0, baselineConn: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const b = await measure(baseline, concurrency);
    const s = await measure(subject, concurrency);
    runs.baseline.push(b.perSecond);
    runs.subject.push(s.perSecond);
    runs.baselineConn = b.connections;
    runs.subjectConn = s.connections;
  }
  rows.push({
    concurrency,
    patchesPerRound: N,
    baselinePerSecond: Math.round(median(runs.baseline)),
    subjectPerSecond: Math.round(median(runs.subject)),
    ratio: Number((median(runs.subject) / median(runs.baseline)).toFixed(2)),
    baselineConnectionsPerRound: runs.baselineConn,
    subjectConnectionsPerRound: runs.subjectConn,
  });
}
console.table(rows);
console.log(JSON.stringify(rows));
await gateway.close();
await sim.close();
