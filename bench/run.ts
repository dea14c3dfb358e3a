// `npm run bench`: every benchmark in sequence, each in its own process (a clean heap, and a hung bench is killed
// at its time limit), then one table. Results go to bench/results/latest.json; `--record` also writes
// bench/results/<date>.json, the figures kept on record. `--quick` runs smaller sizes (a smoke run).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fmt, type Row } from './support.js';

const quick = process.argv.includes('--quick');
const record = process.argv.includes('--record');
// `--only sweep-vs-loops,reads`: those benches alone.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1]?.split(',')) : undefined;

interface Bench {
  name: string;
  file: string;
  args: string[];
  env?: Record<string, string>;
  /** Killed past this. */
  limitMs: number;
  /** Rows from output that is not a RESULT line (the simulator bench predates it). */
  parse?: (stdout: string) => Row[];
}

/** bench/sim-list-watch.ts prints `<label> <ms> ms   baseline <ms> ms   ratio <x>x` lines. */
function parseSimListWatch(stdout: string): Row[] {
  const rows: Row[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(.*?)\s+([\d.]+) ms\s+baseline\s+([\d.]+) ms\s+ratio\s+([\d.]+)x/.exec(line);
    if (m)
      rows.push({
        bench: 'sim-list-watch',
        metric: m[1]!.trim(),
        value: Number(m[2]),
        baseline: Number(m[3]),
        unit: 'ms',
        ratio: Number(m[2]) / Number(m[3]),
        note: 'vs bare node:http, same bytes',
      });
  }
  return rows;
}

const BENCHES: Bench[] = [
  {
    name: 'sim-list-watch',
    file: 'sim-list-watch.ts',
    args: [quick ? '1000' : '5000'],
    limitMs: 120_000,
    parse: parseSimListWatch,
  },
  { name: 'rest-list', file: 'rest-list.ts', args: [quick ? '1000' : '10000'], limitMs: 120_000 },
  { name: 'waiting-jobs', file: 'waiting-jobs.ts', args: [quick ? '200' : '1000'], limitMs: 300_000 },
  { name: 'sweep-fanout', file: 'sweep-fanout.ts', args: [quick ? '50' : '300'], limitMs: 120_000 },
  {
    name: 'interactive-under-sweep',
    file: 'interactive-under-sweep.ts',
    args: [quick ? '40' : '200'],
    limitMs: 400_000,
  },
  // Issue 14's benchmark. Sweep sizes: N clusters split over 1 or 3 hubs, each hub count at two sizes so that
  // growthRows() below has its exponent (quick: 100 -> 300 on one hub; full: 1,000 -> 10,000 on 1 and on 3 hubs).
  // The limits allow for Beekeeper before issue 14 (a 20-QPS cap: ~15 minutes per 10,000-cluster sweep, one hub).
  ...(quick
    ? [
        ['100', '1', 180_000],
        ['300', '1', 240_000],
        ['150', '3', 180_000],
      ]
    : [
        ['1000', '1', 1_200_000],
        ['1000', '3', 900_000],
        ['10000', '1', 3_600_000],
        ['10000', '3', 2_400_000],
      ]
  ).map(([n, hubs, limitMs]) => ({
    name: 'sweep-vs-loops',
    file: 'sweep-vs-loops.ts',
    args: [String(n), String(hubs)],
    env: quick ? { SWEEP_ROUNDS: '1', KUBECTL_SAMPLE: '20' } : { SWEEP_ROUNDS: '2', KUBECTL_SAMPLE: '50' },
    limitMs: Number(limitMs),
  })),
  {
    name: 'reads',
    file: 'reads.ts',
    args: quick ? ['2000', '2'] : ['10000', '8'],
    env: { READS_ROUNDS: quick ? '1' : '2' },
    limitMs: 600_000,
  },
  { name: 'claim-notify', file: 'claim-notify.ts', args: [quick ? '10' : '20'], limitMs: 400_000 },
  { name: 'jobs', file: 'jobs.ts', args: [quick ? '1000' : '5000'], limitMs: 300_000 },
  // Two sizes in each set for growthRows() (RSS above an empty process).
  ...(quick ? ['500', '2000'] : ['1000', '10000']).map((n) => ({
    name: 'memory',
    file: 'memory.ts',
    args: [n],
    // The largest full run also stays up 10 minutes under churn: a compressed "after an hour of work".
    ...(n === '10000' ? { env: { MEMORY_CHURN_MINUTES: '10' } } : {}),
    limitMs: 900_000,
  })),
];

interface Outcome {
  name: string;
  ok: boolean;
  ms: number;
  rows: Row[];
  error?: string;
}

function runOne(b: Bench): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    // detached: the bench and its own children (a simulator process) form one group, killed together on timeout.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', fileURLToPath(new URL(b.file, import.meta.url)), ...b.args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...process.env, ...b.env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      process.stdout.write(c);
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, b.limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      const rows = line ? (JSON.parse(line.slice('RESULT '.length)) as Row[]) : (b.parse?.(stdout) ?? []);
      const ok = code === 0 && !timedOut && rows.length > 0;
      const error = timedOut
        ? `killed after ${b.limitMs / 1000} s`
        : ok
          ? undefined
          : `exit ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`;
      resolve({ name: b.name, ok, ms, rows, ...(error ? { error } : {}) });
    });
  });
}

const outcomes: Outcome[] = [];
for (const b of BENCHES.filter((x) => !only || only.has(x.name))) {
  console.log(`\n== ${b.name} ${b.args.join(' ')}`);
  const o = await runOne(b);
  if (!o.ok) console.log(`!! ${b.name} failed: ${o.error}`);
  outcomes.push(o);
}

const rows = outcomes.flatMap((o) => o.rows);
rows.push(...growthRows(rows));

/**
 * Growth (issue 14, benchmark 6): for every `key` measured at two sizes, the exponent k in value ~ n^k between the
 * smallest and largest size (1 = linear). Value: the subject's exponent; baseline: the baseline's (same sizes).
 * The metric says "linear or better" for k <= 1.1 (noise at two sizes), else the exponent. Ratio: how many times
 * more the value grew than the baseline over the same sizes (a ratio of exponents means nothing when the baseline's
 * is near 0 or negative, as a flood's time with a fixed start-up cost can be).
 */
function growthRows(all: Row[]): Row[] {
  const byKey = new Map<string, Row[]>();
  for (const r of all)
    if (r.key && r.n && r.value > 0 && r.baseline > 0) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const out: Row[] = [];
  for (const [key, rs] of byKey) {
    const sorted = [...rs].sort((a, b) => a.n! - b.n!);
    const lo = sorted[0]!;
    const hi = sorted.at(-1)!;
    if (hi.n === lo.n) continue;
    const k = (a: number, b: number) => Math.log(b / a) / Math.log(hi.n! / lo.n!);
    const value = k(lo.value, hi.value);
    const baseline = k(lo.baseline, hi.baseline);
    out.push({
      bench: 'growth',
      metric: `${key}, ${lo.n} -> ${hi.n} clusters: ${value <= 1.1 ? 'linear or better' : `n^${value.toFixed(2)}`}`,
      value,
      baseline,
      unit: 'exp',
      ratio: hi.value / lo.value / (hi.baseline / lo.baseline),
      note: `value ~ n^k; ${fmt(lo.value)} -> ${fmt(hi.value)} ${lo.unit}; baseline ${fmt(lo.baseline)} -> ${fmt(hi.baseline)}`,
    });
  }
  return out;
}
const w = Math.max(...rows.map((r) => `${r.bench}  ${r.metric}`.length), 20);
console.log(
  `\n${'benchmark'.padEnd(w)} ${'value'.padStart(10)} ${'baseline'.padStart(10)} unit      ${'ratio'.padStart(9)}`,
);
for (const r of rows) {
  console.log(
    `${`${r.bench}  ${r.metric}`.padEnd(w)} ${fmt(r.value).padStart(10)} ${fmt(r.baseline).padStart(10)} ${r.unit.padEnd(9)} ${`${r.ratio.toFixed(2)}x`.padStart(9)}`,
  );
}
for (const o of outcomes)
  console.log(`${o.name}: ${o.ok ? 'ok' : `FAILED (${o.error})`} in ${(o.ms / 1000).toFixed(1)} s`);

const result = {
  at: new Date().toISOString(),
  quick,
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg: loadavg() },
  benches: outcomes.map(({ name, ok, ms, error }) => ({
    name,
    ok,
    seconds: Math.round(ms / 100) / 10,
    ...(error ? { error } : {}),
  })),
  rows,
};
const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}latest.json`, `${JSON.stringify(result, null, 2)}\n`);
if (record) writeFileSync(`${dir}${result.at.slice(0, 10)}.json`, `${JSON.stringify(result, null, 2)}\n`);
process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
