import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'e2e/**/*.test.ts', 'web/src/**/*.test.ts'],
    exclude: ['test/soak/**', 'test/install/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: parallel files fight over the CPU and make the watcher tests flaky.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
