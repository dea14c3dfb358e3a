import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/longest-first-sequencer.js';

// The skip reporter ends every run with the tests that were skipped and why (test/support/needs.ts).
// The drill reporter prints the drills' table (test/drills/README.md), only when drills ran, before the default
// reporter's summary, so the run's last lines stay as they were.
// .ci/run asks for a JSON report beside the usual output, to print its closing "N passed, N failed, N skipped" line.
const report = process.env.BEEKEEPER_TEST_REPORT;

const DRILLS = 'test/drills/**/*.test.ts';
const ALL = 'test/**/*.test.ts';
const GLOBAL_SETUP = ['test/global-setup.ts', 'test/support/early-typecheck.ts'];

/** A positive whole number from the environment, or `fallback`. */
function workers(name: string, fallback: number): number {
  const n = Number(process.env[name] || fallback);
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name}: "${process.env[name]}" is not a whole number >= 1`);
  return n;
}

/**
 * How many of the other files run side by side (test/drills/README.md, "How the suite runs"): each has its own
 * simulator, Beekeeper and Redis key prefix (or its own redis-server), and most of a file's time is waiting on
 * them (Hive at simulator speed, a schedule edge, a process starting), so two at a time on 2 cores took 386 s
 * where one at a time took 768 s (2026-12-01, quiet machine), with a load average near 2. Three took 343 s: not
 * enough gained for the third file's share of a busy machine. BEEKEEPER_TEST_WORKERS sets it (1: one at a time).
 */
const testWorkers = workers('BEEKEEPER_TEST_WORKERS', 2);

/**
 * How many drill files run side by side once every other file is done: each drill has its own redis-server,
 * simulator and role processes and spends most of its time waiting on them (an outage, a heartbeat's minute, a
 * lock's lapse), so three at a time overlap that waiting. Full size (`npm run drills`, DRILL_SCALE=1) they run one
 * at a time: their scenes are four times bigger. BEEKEEPER_DRILL_WORKERS sets it either way (1: one at a time).
 */
const drillWorkers = workers('BEEKEEPER_DRILL_WORKERS', Number(process.env.DRILL_SCALE || '1') < 1 ? 3 : 1);

// What every test file gets, in each of the projects below.
const common = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // A worker process keeps the modules it loaded from one file to the next: a new process per file spent ~5 s per
  // file loading the same modules again (test/platform: 291 s with, 88 s without, on a loaded 2-core machine). So
  // a test file closes what it opens and changes no global state (none uses vi.mock, stubs or fake timers).
  isolate: false,
} as const;

export default defineConfig({
  test: {
    reporters: report
      ? [
          './test/drills/drill-reporter.ts',
          'default',
          './test/support/skip-reporter.ts',
          ['json', { outputFile: report }],
        ]
      : ['./test/drills/drill-reporter.ts', 'default', './test/support/skip-reporter.ts'],
    // Two projects, run one after the other (vitest runs a project group, its sequence.groupOrder, to its end
    // before the next): every file but the drills `testWorkers` at a time, then the drills `drillWorkers` at a
    // time, so a drill never runs beside a file that shares Redis or times itself, only beside other drills. In
    // each, the longest files first (test/support/longest-first-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          ...common,
          name: 'tests',
          include: [ALL],
          exclude: [...configDefaults.exclude, DRILLS],
          maxWorkers: testWorkers,
          globalSetup: GLOBAL_SETUP,
        },
      },
      {
        test: {
          ...common,
          name: 'drills',
          include: [DRILLS],
          maxWorkers: drillWorkers,
          sequence: { groupOrder: 1 },
          // No global setup: a drill has its own redis-server, not the tests' Redis, and the early typecheck
          // belongs to the other project's test/typecheck.test.ts (a global setup runs once per project).
        },
      },
    ],
  },
});
