// What every bench prints and how it measures: a row per figure against a baseline measured in the same run, the
// one-line result bench/run.ts collects, medians, timing, a settled heap, and the harness's own wait.
/** One figure of a bench: the subject and its baseline measured in the same run (ratio = value / baseline). */
export interface Row {
  bench: string;
  metric: string;
  value: number;
  baseline: number;
  unit: string;
  /** value / baseline; below 1 means the subject beats the baseline. */
  ratio: number;
  note?: string;
  /** For bench/run.ts's growth rows: the same `key` measured at several sizes `n` (clusters). */
  key?: string;
  n?: number;
}

export const row = (
  bench: string,
  metric: string,
  value: number,
  baseline: number,
  unit: string,
  note?: string,
): Row => ({
  bench,
  metric,
  value,
  baseline,
  unit,
  ratio: value / baseline,
  ...(note ? { note } : {}),
});

/** Printed last by every bench; bench/run.ts parses it. */
export function report(rows: Row[]): void {
  for (const r of rows) {
    console.log(
      `${r.metric.padEnd(48)} ${fmt(r.value).padStart(10)} ${r.unit.padEnd(9)} baseline ${fmt(r.baseline).padStart(10)}   ratio ${r.ratio.toFixed(2).padStart(8)}x${r.note ? `  (${r.note})` : ''}`,
    );
  }
  console.log(`RESULT ${JSON.stringify(rows)}`);
}

export const fmt = (n: number): string =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(1) : n.toPrecision(2);

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const out = await fn();
  return [performance.now() - start, out];
}

/** Heap after a full collection (the benches run with --expose-gc). */
export function settledHeap(): { heap: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** Polls `check` (harness only: the code under test never polls) until it is true. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  if (process.env.BENCH_DEBUG) console.error(`waiting for ${what}`);
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
