import { defineConfig } from 'vitest/config';

// Test files share one Redis and spawn simulators; run files one at a time so timings stay sane on 2 cores.
// .ci/run asks for a JSON report beside the usual output, to print its closing "N passed, N failed" line.
const report = process.env.BEEKEEPER_TEST_REPORT;

export default defineConfig({
  test: {
    reporters: report ? ['default', ['json', { outputFile: report }]] : ['default'],
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
  },
});
