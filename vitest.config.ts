import { configDefaults, defineConfig } from 'vitest/config';
import DrillSequencer from './test/support/drill-sequencer.js';
import LaneSequencer from './test/support/lane-sequencer.js';

// Test files share one Redis and spawn simulators; run files one at a time so timings stay sane on 2 cores.
// The skip reporter ends every run with the tests that were skipped and why (test/support/needs.ts).
// The drill reporter prints the drills' table (test/drills/README.md), only when drills ran, before the default
// reporter's summary, so the run's last lines stay as they were.
// .ci/run asks for a JSON report beside the usual output, to print its closing "N passed, N failed, N skipped" line.
const report = process.env.BEEKEEPER_TEST_REPORT;
const lanes = process.env.BEEKEEPER_TEST_LANES === '1';

const DRILLS = 'test/drills/**/*.test.ts';
const ALL = 'test/**/*.test.ts';
const GLOBAL_SETUP = ['test/global-setup.ts', 'test/support/early-typecheck.ts'];

/**
 * How many drill files run side by side once every other file is done (test/drills/README.md, "The short form in
 * `npm test`"): each drill has its own redis-server, simulator and role processes and spends most of its time
 * waiting on them (an outage, a heartbeat's minute, a lock's lapse), so three at a time overlap that waiting. Full
 * size (`npm run drills`, DRILL_SCALE=1) they still run one at a time, as before: their scenes are four times
 * bigger. BEEKEEPER_DRILL_WORKERS sets it either way (1: one at a time).
 */
const drillWorkers = Number(
  process.env.BEEKEEPER_DRILL_WORKERS || (Number(process.env.DRILL_SCALE || '1') < 1 ? '3' : '1'),
);
if (!(Number.isInteger(drillWorkers) && drillWorkers >= 1)) {
  throw new Error(`BEEKEEPER_DRILL_WORKERS: "${process.env.BEEKEEPER_DRILL_WORKERS}" is not a whole number >= 1`);
}

// What every test file gets, in each of the projects below.
const common = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // One worker process for every file, which keeps the modules it loaded: a new process per file spent ~5 s per
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
    // BEEKEEPER_TEST_LANES=1: two lanes side by side in two workers, each lane one file at a time
    // (test/support/lanes.ts): the drills, which mostly wait on their own redis-server and processes, and every other
    // file, so the drills' waiting can fill idle time. Opt-in: its one full run (load average ~13 on 2 cores) took
    // 1729 s with test/deploy/least-privilege's delete-after test over its 30 s, so by default no drill runs beside
    // another file (the projects below). One project, not two: vitest 4 gives two projects of one worker each a single worker between them (one
    // group, maxWorkers 1), and between files of two projects it ends a worker and starts a new one.
    ...(lanes
      ? {
          ...common,
          include: [ALL],
          globalSetup: GLOBAL_SETUP,
          maxWorkers: 2,
          sequence: { sequencer: LaneSequencer },
          setupFiles: ['test/support/lanes.ts'],
        }
      : {
          // By default two projects, run one after the other (vitest runs a project group, its sequence.groupOrder,
          // to its end before the next): every file but the drills one at a time, then the drills `drillWorkers` at
          // a time, so a drill never runs beside a file that shares Redis or times itself, only beside other drills;
          // the longest drills first (test/support/drill-sequencer.ts).
          sequence: { sequencer: DrillSequencer },
          projects: [
            {
              test: {
                ...common,
                name: 'tests',
                include: [ALL],
                exclude: [...configDefaults.exclude, DRILLS],
                fileParallelism: false,
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
        }),
  },
});
