// Connection reuse per hub (issue 14, lane hubio): 1,000 merge PATCHes one at a time through the gateway to a TLS
// simulator hub, and the same at 32 concurrent; patches/s and the TCP connections the hub accepted. Run once on a
// commit before keep-alive and once after to compare (the ratio is the point, the machine is noisy).
//   npx tsx bench/hub-keepalive.ts [patches]
import { systemClock } from '../src/clock.js';
import { createKubeGateway } from '../src/kube/gateway.js';
import { startApiServer } from '../src/sim/apiserver/index.js';
import { stringify as toYaml } from 'yaml';

const N = Number(process.argv[2] ?? 1000);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const sim = await startApiServer({ tls: true });
let connections = 0;
// Counted at the TLS layer: every accepted connection is one handshake.
(sim as unknown as { server?: { on(e: string, f: () => void): void } }).server?.on('secureConnection', () => {
  connections++;
});
const gateway = await createKubeGateway({
  hubs: [{ name: 'bench', kubeconfigData: toYaml(sim.kubeconfig('bench')) }],
  log: quiet,
  clock: systemClock,
  cachedKinds: [],
  // A cap far above what the loop reaches, so the figure is the transport's, on either side of the change.
  rateLimit: { qps: 100_000, burst: 100_000 },
});
const count = () =>
  typeof (sim as { connectionCount?: () => number }).connectionCount === 'function'
    ? (sim as unknown as { connectionCount(): number }).connectionCount()
    : connections;
const patch = (i: number) =>
  gateway.mergePatch('Namespace', { hub: 'bench', name: 'default' }, { metadata: { labels: { i: String(i) } } });

for (let i = 0; i < 20; i++) await patch(i); // warm-up
const c0 = count();
let t = performance.now();
for (let i = 0; i < N; i++) await patch(i);
const seqMs = performance.now() - t;
const c1 = count();
t = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < N) await patch(next++);
  }),
);
const parMs = performance.now() - t;
const c2 = count();
console.log(
  JSON.stringify({
    patches: N,
    sequentialPerSecond: Math.round((N / seqMs) * 1000),
    sequentialConnections: c1 - c0,
    concurrent32PerSecond: Math.round((N / parMs) * 1000),
    concurrent32Connections: c2 - c1,
  }),
);
await gateway.close();
await sim.close();
