// The floor under a single cached GET (issue 14, benchmark 2's single get; not in run.ts, ~2 min): how much of
// Beekeeper's CPU per answer the HTTP stack and the request log line cost before any of its own work. Each server
// answers GET /v1/clusters/{hub}/{namespace}/{name} from 10,000 answers serialised once, in its own process, loaded
// by bench/http-load.ts through http-load-client.ts (16 connections, closed loop, a child process), rounds alternating over the servers:
//  - node:http: what the simulator does, bytes from a Map (the baseline);
//  - fastify: the same strings through a bare Fastify route;
//  - + headers: Beekeeper's answer headers (the four OWASP REST ones, X-Request-Id from the client's or a UUID);
//  - + log, pino's default: its request log line through pino's default stdout stream (libuv's thread pool);
//  - + log, Beekeeper's logger: the same line through src/logger.ts (redaction, stdout written from the main thread).
// CPU per request is the server process's own (process.cpuUsage: every thread, the thread pool's too).
// Run: npx tsx bench/http-floor.ts [seconds per round] [rounds]
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController } from 'fastify';
import { pino } from 'pino';
import { API_SECURITY_HEADERS, requestIdOf } from '../src/http/edge.js';
import { createLogger } from '../src/logger.js';
import { median, report, row, type Row } from './figures.js';
import { runLoad, type LoadResult as Load } from './http-load-client.js';

const COUNT = 10_000;
const VARIANTS = ['node:http', 'fastify', '+ headers', '+ log, pino default', "+ log, Beekeeper's logger"] as const;
type Variant = (typeof VARIANTS)[number];

const answer = (i: number) =>
  JSON.stringify({
    hub: 'bench',
    namespace: 'bench-reads-0',
    name: `cd-${i}`,
    phase: 'Installed',
    phaseMessage: 'installed; Hive has not reported a power state yet',
    installed: true,
    powerState: { desired: 'Running' },
    baseDomain: 'example.com',
    protected: false,
    labels: { team: 't0' },
    problems: [],
    uid: '413723dd-967f-41cb-b41f-0ddfdb7a6e1f',
    createdAt: '2026-12-02T16:37:41Z',
    platform: 'aws',
    region: 'us-east-1',
    conditions: [],
  });

/** The server side: one variant, listening on loopback; reports its port, then its CPU between 'start' and 'stop'. */
async function serve(variant: Variant): Promise<void> {
  const answers = new Map(Array.from({ length: COUNT }, (_, i) => [`cd-${i}`, answer(i)]));
  let port: number;
  if (variant === 'node:http') {
    const bytes = new Map([...answers].map(([k, v]) => [k, Buffer.from(v)]));
    const server = http.createServer((req, res) => {
      const body = bytes.get(req.url!.split('/')[5] ?? '');
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  } else {
    const log =
      variant === '+ log, pino default'
        ? pino({ level: 'info' })
        : variant === "+ log, Beekeeper's logger"
          ? createLogger({ level: 'info', pretty: false })
          : undefined;
    const app = Fastify({ logController: new LogController({ disableRequestLogging: true }), genReqId: requestIdOf });
    if (variant !== 'fastify') {
      app.addHook('onRequest', (_request, reply, done) => {
        reply.headers(API_SECURITY_HEADERS);
        done();
      });
      app.addHook('onSend', (request, reply, payload, done) => {
        reply.header('x-request-id', request.id);
        done(null, payload);
      });
    }
    if (log) {
      // The fields of server.ts's request line.
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const ms = Math.round(reply.elapsedTime);
        log.info(
          { reqId: request.id, method: request.method, route, status: reply.statusCode, ms, principal: 'anonymous' },
          'request',
        );
        done();
      });
    }
    app.get<{ Params: { name: string } }>('/v1/clusters/:hub/:namespace/:name', (request, reply) => {
      const body = answers.get(request.params.name);
      if (!body) return reply.code(404).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  }
  let from = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'start') from = process.cpuUsage();
    else if (m === 'stop') {
      const used = process.cpuUsage(from);
      process.send!({ cpuMs: (used.user + used.system) / 1000 });
    }
  });
  process.send!({ port });
}

const reply = <T>(child: ChildProcess) => new Promise<T>((r) => child.once('message', (m) => r(m as T)));
const paths = Array.from({ length: COUNT }, (_, i) => `/v1/clusters/bench/bench-reads-0/cd-${i}`);

const load = (origin: string, durationMs: number, requests?: number): Promise<Load> =>
  runLoad({ origin, paths, connections: 16, durationMs, ...(requests ? { requests } : {}) });

async function main(seconds: number, rounds: number): Promise<void> {
  const servers = new Map<Variant, { child: ChildProcess; origin: string }>();
  try {
    for (const variant of VARIANTS) {
      // stdout to /dev/null, as in bench/reads.ts (role-process.ts): the log lines are written, not read.
      const child = fork(fileURLToPath(import.meta.url), ['--serve', variant], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const { port } = await reply<{ port: number }>(child);
      servers.set(variant, { child, origin: `http://127.0.0.1:${port}` });
      await load(`http://127.0.0.1:${port}`, 120_000, COUNT * 2); // warm: every answer twice, the JIT settled
    }
    const runs = new Map<Variant, Array<Load & { serverCpuMs: number }>>(VARIANTS.map((v) => [v, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [variant, { child, origin }] of servers) {
        child.send('start');
        const result = await load(origin, seconds * 1000);
        child.send('stop');
        const { cpuMs } = await reply<{ cpuMs: number }>(child);
        if (result.errors > 0) throw new Error(`${variant}: ${result.errors} failed requests`);
        runs.get(variant)!.push({ ...result, serverCpuMs: cpuMs });
      }
    }
    const rate = (xs: Load[]) => median(xs.map((x) => x.count / (x.durationMs / 1000)));
    const cpu = (xs: Array<Load & { serverCpuMs: number }>, k: 'cpuMs' | 'serverCpuMs') =>
      median(xs.map((x) => (x[k] * 1000) / x.count));
    const base = runs.get('node:http')!;
    const rows: Row[] = [];
    const note = `16 connections, ${seconds} s x ${rounds}; baseline: node:http answering the same bytes`;
    for (const variant of VARIANTS.slice(1)) {
      const xs = runs.get(variant)!;
      rows.push(
        row('http-floor', `${variant}: requests/s`, rate(xs), rate(base), 'req/s', note),
        row('http-floor', `${variant}: server CPU per request`, cpu(xs, 'serverCpuMs'), cpu(base, 'serverCpuMs'), 'µs'),
        row('http-floor', `${variant}: client CPU per request`, cpu(xs, 'cpuMs'), cpu(base, 'cpuMs'), 'µs'),
      );
    }
    report(rows);
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as Variant);
else await main(Number(process.argv[2] ?? 6), Number(process.argv[3] ?? 3));
