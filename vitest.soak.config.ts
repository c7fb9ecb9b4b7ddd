import { defineConfig } from 'vitest/config';

// The long robustness runs (npm run test:soak): a minute of load against the real CLI while another process
// rewrites the home, and the slow-client timeouts. They need the build (dist/), which `npm test` makes.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // One at a time: the soak measures the server, not two soaks fighting for two cores.
    fileParallelism: false,
    maxWorkers: 1,
  },
});
