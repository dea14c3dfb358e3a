import { defineConfig } from 'vitest/config';

// Test files share one Redis and spawn simulators; run files one at a time so timings stay sane on 2 cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
  },
});
