// The vitest reporter behind `npm run drills`: it collects the `DRILL {json}` lines drills print (report.ts), and at
// the end of a run that had any prints one table, a row per tally, and writes the rows to
// test/drills/results/latest.json (git-ignored). A row without its own seconds gets the duration of the test that
// printed it. Runs without drills print and write nothing; it sits before the default reporter, whose summary (and
// the skip reporter's lines) still end the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';
import { drillRows, drillTable, type DrillRow } from './report.js';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');

export default class DrillReporter implements Reporter {
  private readonly seen: Array<{ taskId?: string; row: DrillRow }> = [];

  onUserConsoleLog(log: { content: string; taskId?: string; type: string }): void {
    if (log.type !== 'stdout') return;
    for (const row of drillRows(log.content)) this.seen.push({ taskId: log.taskId, row });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (this.seen.length === 0) return;
    const durations = new Map<string, number>();
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const duration = test.diagnostic()?.duration;
        if (duration !== undefined) durations.set(test.id, duration);
      }
    }
    const rows = this.seen.map(({ taskId, row }) => {
      if (row.seconds !== undefined || !taskId || !durations.has(taskId)) return row;
      return { ...row, seconds: Math.round(durations.get(taskId)! / 100) / 10 };
    });
    mkdirSync(dirname(RESULTS), { recursive: true });
    const scale = process.env.DRILL_SCALE || '1';
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ finishedAt: new Date().toISOString(), scale: Number(scale), drills: rows }, null, 2)}\n`,
    );
    process.stdout.write(
      `\n Drills (DRILL_SCALE=${scale}; ${relative(process.cwd(), RESULTS)}):\n\n${drillTable(rows)}\n`,
    );
  }
}
