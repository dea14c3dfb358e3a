// A closed-loop HTTP load generator in a child process (its own event loop, so the server under test in the parent
// does not share a loop with its clients): `connections` clients each send GETs back to back for `durationMs`,
// cycling through `paths` (or until `requests` were sent, when given: one pass to warm a server up). Sends { count, errors, p50, p99, durationMs, cpuMs } (ms; cpuMs: this client's own CPU,
// user + system) to the parent over IPC.
// Forked by bench/reads.ts, which sends the load as its first IPC message. (Not a worker thread: tsx does not load .ts there.)
import { Pool } from 'undici';

interface Load {
  origin: string;
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  requests?: number;
}

const {
  origin,
  paths,
  headers,
  connections,
  durationMs,
  requests = Infinity,
} = await new Promise<Load>((r) => process.once('message', (m) => r(m as Load)));
const pool = new Pool(origin, { connections, pipelining: 1 });
const latencies: number[] = [];
let errors = 0;
let next = 0;
const cpu0 = process.cpuUsage();
const end = performance.now() + durationMs;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end && next < requests) {
      const path = paths[next++ % paths.length]!;
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: 'GET', path, headers: headers ?? {} });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) {
          errors++;
          if (errors === 1) console.error(`${path}: ${res.statusCode}`);
        } else latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  }),
);
const cpu = process.cpuUsage(cpu0);
await pool.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
const cpuMs = (cpu.user + cpu.system) / 1000;
process.send!({ count: latencies.length, errors, p50: pct(0.5), p99: pct(0.99), durationMs, cpuMs }, () =>
  process.exit(0),
);
