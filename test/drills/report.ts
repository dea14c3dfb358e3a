// What each drill reports to `npm run drills`: one line per tally on the test's output, `DRILL {json}`, which the
// drill reporter (drill-reporter.ts) collects into the closing table and test/drills/results/latest.json. A line on
// stdout rather than a file or a global: the drills run in vitest's worker and the reporter in its main process,
// and console output is the channel vitest already carries between them (with the test it came from).
import type { Tally } from './tally.js';

export const DRILL_LINE = 'DRILL ';

export interface DrillRow {
  /** The drill's name, with a qualifier when one drill reports several tallies: `restart-redis (AOF)`. */
  drill: string;
  expected: number;
  done: number;
  duplicated: number;
  lost: number;
  unexpected?: number;
  /** Seconds the tallied work took, when the drill measured it; else the reporter uses the test's duration. */
  seconds?: number;
}

/** Reports a drill's tally (call it once per tally, before the assertions, so a failing drill still shows). */
export function report(drill: string, t: Tally, opts: { seconds?: number } = {}): void {
  const row: DrillRow = {
    drill,
    expected: t.expected,
    done: t.done,
    duplicated: t.duplicated,
    lost: t.lost,
    ...(t.unexpected ? { unexpected: t.unexpected } : {}),
    ...(opts.seconds === undefined ? {} : { seconds: Math.round(opts.seconds * 10) / 10 }),
  };
  console.log(`${DRILL_LINE}${JSON.stringify(row)}`);
}

/** The rows in a piece of test output (`DRILL {…}` lines; `name` accepted for `drill`), ignoring anything else. */
export function drillRows(output: string): DrillRow[] {
  const rows: DrillRow[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith(DRILL_LINE)) continue;
    try {
      const raw = JSON.parse(line.slice(DRILL_LINE.length)) as Partial<DrillRow> & { name?: string };
      const drill = raw.drill ?? raw.name;
      const counts = [raw.expected, raw.done, raw.duplicated, raw.lost];
      if (typeof drill !== 'string' || !counts.every((n) => typeof n === 'number')) continue;
      rows.push({
        drill,
        expected: raw.expected!,
        done: raw.done!,
        duplicated: raw.duplicated!,
        lost: raw.lost!,
        ...(raw.unexpected ? { unexpected: raw.unexpected } : {}),
        ...(typeof raw.seconds === 'number' ? { seconds: raw.seconds } : {}),
      });
    } catch {
      // Not ours after all: a test's own line that happens to start with the prefix.
    }
  }
  return rows;
}

/** The closing table: one row per tally, in the order the drills reported. */
export function drillTable(rows: DrillRow[]): string {
  // `unexpected` (actions nobody asked for) gets a column only when some drill saw any.
  const odd = rows.some((r) => r.unexpected);
  const head = ['drill', 'expected', 'done', 'duplicated', 'lost', ...(odd ? ['unexpected'] : []), 'seconds'];
  const cells = rows.map((r) => [
    r.drill,
    String(r.expected),
    String(r.done),
    String(r.duplicated),
    String(r.lost),
    ...(odd ? [String(r.unexpected ?? 0)] : []),
    r.seconds === undefined ? '-' : r.seconds.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
