// The client side of a hub request (issue 14): 3,000 merge PATCHes, 32 in flight, to a bare TLS server in a child
// process (answering every request with the same small object, so the figures are the client's), through Beekeeper's
// undici transport (src/kube/hub-transport.ts) against the one it replaced (src/kube/fetch-transport.ts: client-node's
// applyToFetchOptions and node-fetch 2 with a keep-alive agent, still the path for a kubeconfig's proxy-url). Rounds
// alternate, after one warm-up round each, and each starts with 64 untimed requests (its connections open); medians. Client CPU is this process's (process.cpuUsage, user + system)
// per request; the ratio is subject / baseline (below 1: cheaper; for req/s above 1: faster).
//   npx tsx bench/hub-client.ts [patches per round] [in flight] [rounds]
import { fork } from 'node:child_process';
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { createFetchSend } from '../src/kube/fetch-transport.js';
import type { HubSend } from '../src/kube/hub-request.js';
import { createHubSend } from '../src/kube/hub-transport.js';
import { selfSignedCertificate } from '../src/sim/apiserver/self-signed.js';

if (process.argv[2] === '--server') {
  const answer = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'default', resourceVersion: '1234', labels: { i: '0' } },
    status: { phase: 'Active' },
  });
  let connections = 0;
  const server = createServer(selfSignedCertificate(), (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.on('secureConnection', () => (connections += 1));
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  process.on('message', () => process.send!({ connections }));
  process.on('disconnect', () => process.exit(0));
} else {
  const N = Number(process.argv[2] ?? 3000);
  const IN_FLIGHT = Number(process.argv[3] ?? 32);
  const ROUNDS = Number(process.argv[4] ?? 5);
  const child = fork(fileURLToPath(import.meta.url), ['--server'], { execArgv: ['--import', 'tsx'] });
  const next = () => new Promise<Record<string, number>>((resolve) => child.once('message', resolve));
  const { port } = await next();
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'bench', server: `https://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'bench', token: 'bench-token' }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
    currentContext: 'bench',
  });
  const connections = async () => {
    child.send({ count: true });
    return (await next()).connections!;
  };

  async function flood(send: HubSend, count: number) {
    let i = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (i < count) {
          const n = i++;
          await send(kc, 'PATCH', '/api/v1/namespaces/default', {
            body: { metadata: { labels: { i: String(n) } } },
            contentType: 'application/merge-patch+json',
          });
        }
      }),
    );
  }

  async function round(send: HubSend) {
    await flood(send, IN_FLIGHT * 2); // untimed: this transport's connections are open (idle ones close after 4 s)
    const c0 = await connections();
    const cpu = process.cpuUsage();
    const t = performance.now();
    await flood(send, N);
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    return {
      cpuMicros: (used.user + used.system) / N,
      perSecond: (N / ms) * 1000,
      connections: (await connections()) - c0,
    };
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const transports = { baseline: createFetchSend(15_000), subject: createHubSend(15_000) };
  await round(transports.baseline); // warm-up: JIT, the TLS connections opened
  await round(transports.subject);
  const runs = {
    baseline: [] as Awaited<ReturnType<typeof round>>[],
    subject: [] as Awaited<ReturnType<typeof round>>[],
  };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on the machine as the other left it.
    const order = r % 2 === 0 ? (['baseline', 'subject'] as const) : (['subject', 'baseline'] as const);
    for (const which of order) runs[which].push(await round(transports[which]));
  }
  const summary = (which: 'baseline' | 'subject') => ({
    cpuMicros: median(runs[which].map((x) => x.cpuMicros)),
    perSecond: median(runs[which].map((x) => x.perSecond)),
    connections: Math.max(...runs[which].map((x) => x.connections)),
  });
  const [b, s] = [summary('baseline'), summary('subject')];
  const row = (figure: string, base: number, subj: number) => ({
    figure,
    baseline: Math.round(base),
    subject: Math.round(subj),
    ratio: base > 0 ? Number((subj / base).toFixed(2)) : null,
  });
  console.log(
    `${N} PATCHes per round, ${IN_FLIGHT} in flight, ${ROUNDS} rounds each (medians); load ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.table([
    row('client CPU µs/request', b.cpuMicros, s.cpuMicros),
    row('requests/s', b.perSecond, s.perSecond),
    row('new TLS connections per round (max)', b.connections, s.connections),
  ]);
  child.disconnect();
}
