import { defineConfig } from 'vitest/config';
import LaneSequencer from './test/support/lane-sequencer.js';

// Test files share one Redis and spawn simulators; run files one at a time so timings stay sane on 2 cores.
// The skip reporter ends every run with the tests that were skipped and why (test/support/needs.ts).
// The drill reporter prints the drills' table (test/drills/README.md), only when drills ran, before the default
// reporter's summary, so the run's last lines stay as they were.
// .ci/run asks for a JSON report beside the usual output, to print its closing "N passed, N failed, N skipped" line.
const report = process.env.BEEKEEPER_TEST_REPORT;
const lanes = process.env.BEEKEEPER_TEST_LANES === '1';

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
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // BEEKEEPER_TEST_LANES=1: two lanes side by side in two workers, each lane one file at a time
    // (test/support/lanes.ts): the drills, which mostly wait on their own redis-server and processes, and every other
    // file, so the drills' waiting can fill idle time. Opt-in: its one full run (load average ~13 on 2 cores) took
    // 1729 s with test/deploy/least-privilege's delete-after test over its 30 s, so the default stays one file at a
    // time. One project, not two: vitest 4 gives two projects of one worker each a single worker between them (one
    // group, maxWorkers 1), and between files of two projects it ends a worker and starts a new one.
    ...(lanes
      ? { maxWorkers: 2, sequence: { sequencer: LaneSequencer }, setupFiles: ['test/support/lanes.ts'] }
      : { fileParallelism: false }),
    // One worker process for every file, which keeps the modules it loaded: a new process per file spent ~5 s per
    // file loading the same modules again (test/platform: 291 s with, 88 s without, on a loaded 2-core machine). So
    // a test file closes what it opens and changes no global state (none uses vi.mock, stubs or fake timers).
    isolate: false,
    globalSetup: ['test/global-setup.ts', 'test/support/early-typecheck.ts'],
  },
});
